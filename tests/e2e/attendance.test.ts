import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, baseUrl, eventually, launch, loginUI, newCompany, newPage, shot, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const customer = { number: '5511988887777', name: 'Carla Mendes' };

describe('attendance: a conversation from the simulated phone to resolve and reopen', () => {
  test('connect, inbound message live as pending with a badge, accept, reply (the phone receives it), resolve, reopen', async () => {
    const co = await newCompany('attend');
    const created = await apiCall('POST', '/whatsapp', {
      token: co.token,
      body: { name: 'Principal', isDefault: true },
    });
    expect(created.status).toBeLessThan(300);
    const whatsappId = created.body.id as number;
    const session = `sessions/${co.companyId}/${whatsappId}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000002' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${whatsappId}`, { token: co.token })).body?.status === 'CONNECTED',
    );

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.getByRole('tab', { name: /Aguardando/ }).click();
    await page.getByText('Nenhum atendimento encontrado.').waitFor();
    // the realtime link is up (the reconnecting bar is gone) and the list rooms are joined
    await page.getByRole('status', { name: 'Reconectando…' }).waitFor({ state: 'detached' });
    await page.waitForTimeout(500);

    // inbound: the ticket appears live (no reload) in Pending, with the count badge
    const sent = await simulator(`${session}/messages`, {
      from: customer.number,
      pushName: customer.name,
      body: 'Olá, preciso de ajuda com meu pedido',
    });
    expect(sent.status).toBe(200);
    const row = page.getByRole('listitem').filter({ hasText: customer.name });
    await row.waitFor({ timeout: 45_000 });
    await page
      .getByRole('tab', { name: /Aguardando/ })
      .getByText('1')
      .waitFor();
    await page.getByText('Olá, preciso de ajuda com meu pedido').first().waitFor();
    await shot(page, '12-pending-live');

    // a pending row does not open by click
    await row.getByText(customer.name).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/tickets');

    // accept -> the ticket opens
    await row.getByRole('button', { name: 'Aceitar' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/);
    await page.getByRole('button', { name: 'Resolver' }).waitFor();
    await page.getByRole('log').getByText('Olá, preciso de ajuda com meu pedido').waitFor();

    // reply: the simulated phone receives it (signed with the attendant's name)
    const composer = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await composer.fill('Claro! Qual o número do pedido?');
    await composer.press('Enter');
    await page.getByRole('log').getByText('Claro! Qual o número do pedido?').waitFor();
    const outbound = await eventually(async () => {
      const snap = await simulator(session);
      return (snap.body?.outbound as { to: string; body: string }[] | undefined)?.find((m) =>
        m.body.includes('Claro! Qual o número do pedido?'),
      );
    }, 20_000);
    expect(outbound.body).toBe(`*${co.name}:*\nClaro! Qual o número do pedido?`);
    expect(outbound.to).toContain(customer.number);

    // reply with a quote of the customer's message; the phone receives the quote
    const theirs = page.getByTestId('message').filter({ hasText: 'Olá, preciso de ajuda com meu pedido' });
    await theirs.getByRole('button', { name: 'Opções da mensagem' }).click();
    await page.getByRole('menuitem', { name: 'Responder' }).click();
    await page.getByText('Respondendo a Carla Mendes').waitFor();
    await composer.fill('Sobre este pedido, já verifiquei');
    await composer.press('Enter');
    await page
      .getByTestId('message')
      .filter({ hasText: 'Sobre este pedido, já verifiquei' })
      .getByText('Olá, preciso de ajuda com meu pedido')
      .waitFor();
    const quoted = await eventually(async () => {
      const snap = await simulator(session);
      return (snap.body?.outbound as { body: string; quotedWid?: string }[] | undefined)?.find((m) =>
        m.body.includes('Sobre este pedido'),
      );
    }, 20_000);
    expect(quoted.quotedWid).toBeTruthy();

    // delete my own message, after confirming
    const mine = page.getByTestId('message').filter({ hasText: 'Sobre este pedido, já verifiquei' });
    await mine.getByRole('button', { name: 'Opções da mensagem' }).click();
    await page.getByRole('menuitem', { name: 'Deletar' }).click();
    await page.getByRole('dialog', { name: 'Tem certeza?' }).getByRole('button', { name: 'Deletar' }).click();
    await page.getByText('Esta mensagem foi apagada').waitFor({ timeout: 20_000 });
    // the customer's message offers reply but not delete
    await theirs.getByRole('button', { name: 'Opções da mensagem' }).click();
    await page.getByRole('menuitem', { name: 'Responder' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Deletar' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // quick replies after "/" and 2 characters, matching on shortcode; the label cuts the text at 35
    const qm = await apiCall('POST', '/quick-messages', {
      token: co.token,
      body: {
        shortcode: 'prazo',
        message: 'O prazo de entrega é de até 5 dias úteis após a confirmação do pagamento.',
      },
    });
    expect(qm.status).toBe(201);
    await composer.fill('/p');
    await page.waitForTimeout(600);
    expect(await page.getByRole('list', { name: 'Respostas rápidas' }).count()).toBe(0);
    await composer.fill('/pr');
    await page.getByRole('button', { name: 'prazo - O prazo de entrega é de até 5 dias ...' }).click();
    await expect(composer.inputValue()).resolves.toBe(
      'O prazo de entrega é de até 5 dias úteis após a confirmação do pagamento.',
    );
    await composer.fill('');

    // media: uploaded straight to storage with a presigned PUT, then sent by key; the phone gets the file
    await page.getByTestId('composer-file').setInputFiles({
      name: 'comprovante.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 comprovante de teste'),
    });
    await page.getByTestId('message').filter({ hasText: 'comprovante.pdf' }).waitFor({ timeout: 20_000 });
    const media = await eventually(async () => {
      const snap = await simulator(session);
      return (snap.body?.outbound as { body: string; media?: { fileName: string; size: number } }[] | undefined)?.find(
        (m) => m.media?.fileName === 'comprovante.pdf',
      );
    }, 20_000);
    expect(media.media!.size).toBeGreaterThan(0);

    // a quick reply with a file: choosing it shows the file beside the text, and both go out together.
    // The suggestions were just fetched (no 'catalogo' yet): one created a moment later is still offered.
    const listed = page.waitForResponse((r) => r.url().includes('/quick-messages/list'));
    await composer.fill('/cat');
    await listed;
    await composer.fill('');
    const withFile = await apiCall('POST', '/quick-messages', {
      token: co.token,
      body: { shortcode: 'catalogo', message: 'Segue o nosso catálogo' },
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4 catalogo')], { type: 'application/pdf' }), 'catalogo.pdf');
    const attached = await fetch(`${baseUrl()}/api/quick-messages/${withFile.body.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${co.token}` },
      body: form,
    });
    expect(attached.status).toBe(200);
    await composer.fill('/cat');
    await page.getByRole('button', { name: /^catalogo - / }).click();
    const chip = page.getByRole('button', { name: 'Anexo da resposta rápida: catalogo.pdf' });
    await chip.waitFor();
    await shot(page, '13a-quick-reply-file');
    await composer.press('Enter');
    await chip.waitFor({ state: 'detached' });
    const catalog = await eventually(async () => {
      const snap = await simulator(session);
      return (snap.body?.outbound as { body: string; media?: { fileName: string } }[] | undefined)?.find(
        (m) => m.media?.fileName === 'catalogo.pdf',
      );
    }, 20_000);
    expect(catalog.body).toContain('Segue o nosso catálogo');
    await shot(page, '13-ticket-open');

    // resolve -> back to the list; the ticket is in Resolved
    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.waitForURL(/\/tickets$/);
    await page.getByRole('tab', { name: 'Resolvidos' }).click();
    await page.getByRole('button', { name: customer.name }).click();
    await page.getByRole('button', { name: 'Reabrir' }).waitFor();
    await shot(page, '14-ticket-closed');

    // reopen -> open again, the composer is enabled
    await page.getByRole('button', { name: 'Reabrir' }).click();
    await page.getByRole('button', { name: 'Resolver' }).waitFor();
    await expect(composer.isEnabled()).resolves.toBe(true);

    // the dashboard counts it: the attendant is listed online, the charts have data
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const attendants = page.getByRole('table', { name: 'Atendentes' });
    await attendants.getByRole('row').filter({ hasText: co.name }).getByText('Online').waitFor();
    await shot(page, '19-dashboard-with-data');
    await context.close();
  });

  test('a message that arrives in the conversation on screen never shows in the bell nor as unread', async () => {
    const co = await newCompany('onscreen');
    const created = await apiCall('POST', '/whatsapp', {
      token: co.token,
      body: { name: 'Principal', isDefault: true },
    });
    const session = `sessions/${co.companyId}/${created.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000003' })).status === 200);
    await eventually(
      async () =>
        (await apiCall('GET', `/whatsapp/${created.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const from = '5511977776666';
    await simulator(`${session}/messages`, { from, pushName: 'Bruno', body: 'Bom dia' });
    const pending = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?status=pending&showAll=true', { token: co.token });
      return list.body.tickets?.[0] as { id: number; uuid: string } | undefined;
    });
    const me = await apiCall('GET', '/auth/me', { token: co.token });
    await apiCall('PUT', `/tickets/${pending.id}`, { token: co.token, body: { status: 'open', userId: me.body.id } });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${pending.uuid}`);
    await page.getByRole('log').getByText('Bom dia').waitFor();
    await page.getByRole('status', { name: 'Reconectando…' }).waitFor({ state: 'detached' });
    await page.waitForTimeout(500);
    // every state the bell's badge takes from now on
    await page.evaluate(() => {
      const badge = document.querySelector('button[aria-label="Notificações"] .MuiBadge-badge')!;
      const seen: string[] = [];
      (window as unknown as { bellSeen: string[] }).bellSeen = seen;
      new MutationObserver(() =>
        seen.push(badge.classList.contains('MuiBadge-invisible') ? '' : (badge.textContent ?? '')),
      ).observe(badge, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    await simulator(`${session}/messages`, { from, pushName: 'Bruno', body: 'Ainda está aí?' });
    await page.getByRole('log').getByText('Ainda está aí?').waitFor();
    await page.waitForTimeout(1500);
    const seen = await page.evaluate(() => (window as unknown as { bellSeen: string[] }).bellSeen);
    expect(seen.filter((text) => text !== '' && text !== '0')).toEqual([]);
    const stored = await apiCall('GET', `/tickets/${pending.id}`, { token: co.token });
    expect(stored.body.unreadMessages ?? 0).toBe(0);
    await context.close();
  });
});
