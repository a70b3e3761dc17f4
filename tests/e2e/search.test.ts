import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, shot, simulator } from './browser';

/**
 * Message search (issue 27) in Chromium: the top bar's search opens the page, words typed without
 * accents find the message, the matched words are marked, and a hit opens its ticket scrolled to that
 * message, far back in the conversation. Screenshots: tests/e2e/screenshots/search-*.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('message search', () => {
  test('search from the top bar, filters, a hit opens the ticket at that message', async () => {
    const co = await newCompany('search');
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000007' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Joana Conceição', number: '5511955554444' },
    });
    const ticket = await apiCall('POST', '/tickets', {
      token: co.token,
      body: { contactId: contact.body.id, whatsappId: wa.body.id, status: 'open' },
    });
    expect(ticket.status).toBe(201);
    const say = async (body: string) =>
      (await apiCall('POST', `/messages/${ticket.body.id}`, { token: co.token, body: { body } })).body as {
        id: string;
      };
    const target = await say('A segunda via da fatura de março já está disponível');
    // enough later messages that the target is off the first page of the conversation
    for (let i = 0; i < 45; i++) await say(`Mensagem de acompanhamento número ${i + 1}`);
    await eventually(async () => {
      const res = await apiCall('GET', '/search?q=fatura%20', { token: co.token });
      return res.body?.results?.length === 1;
    });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.getByRole('button', { name: 'Buscar mensagens' }).click();
    await page.waitForURL('**/search');
    await page.getByRole('textbox', { name: 'Palavras' }).fill('MARCO fatu');
    const results = page.getByRole('list', { name: 'Resultados' });
    const hit = results.getByRole('button', { name: 'Abrir a conversa de Joana Conceição nesta mensagem' });
    await hit.waitFor();
    await expect.poll(() => results.getByRole('button').count()).toBe(1);
    expect(await hit.locator('mark').allTextContents()).toEqual(['fatura', 'março']);
    await hit.getByText(`Ticket #${ticket.body.id}`).waitFor();
    await shot(page, 'search-results');

    // a filter that excludes the ticket empties the list; clearing it brings the hit back
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Resolvido' }).click();
    await page.getByText('Nenhuma mensagem encontrada.').waitFor();
    await page.getByRole('button', { name: 'Limpar filtros' }).click();
    await hit.waitFor();

    // the contact's name finds their messages too, accents ignored
    await page.getByRole('textbox', { name: 'Palavras' }).fill('conceicao acompanhamento 45 ');
    await results.getByText('Mensagem de acompanhamento número 45').waitFor();
    expect(await results.getByRole('button').first().locator('mark').first().textContent()).toBe('Conceição');

    await page.getByRole('textbox', { name: 'Palavras' }).fill('"segunda via"');
    await expect
      .poll(async () => (await results.getByRole('button').allTextContents()).join('|'))
      .toMatch(/^[^|]*segunda via da fatura[^|]*$/);
    await results.getByRole('button').click();
    await page.waitForURL(new RegExp(`/tickets/${ticket.body.uuid}\\?message=`));
    const focused = page.locator(`[data-message-id="${target.id}"][aria-current="true"]`);
    await focused.waitFor();
    await focused.getByText('A segunda via da fatura de março já está disponível').waitFor();
    // scrolled to it: the message is inside the visible part of the conversation
    const log = page.getByRole('log');
    const [box, view] = await Promise.all([focused.boundingBox(), log.boundingBox()]);
    expect(box && view).toBeTruthy();
    expect(box!.y).toBeGreaterThanOrEqual(view!.y - 1);
    expect(box!.y + box!.height).toBeLessThanOrEqual(view!.y + view!.height + 1);
    await shot(page, 'search-opened-at-message');
    await context.close();
  });
});
