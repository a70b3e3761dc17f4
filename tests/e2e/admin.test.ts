import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { Browser, Page } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, shot, simulator, unique } from './browser';
import { readCsv } from '../csv';

/**
 * The admin's setup screens (management.md sections 2, 5, 6, 8, 9; attendance.md 2.14), driven in
 * Chromium against the local stack with the WhatsApp simulator. Screenshots: tests/e2e/screenshots/admin-*.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, text: string) => page.getByText(text).first().waitFor();
const menu = async (page: Page, name: string, path: string) => {
  await page
    .getByRole('navigation')
    .getByRole('link', { name, exact: true })
    .and(page.locator(`a[href="${path}"]`))
    .click();
  await page.waitForURL(`**${path}`);
};
const select = async (page: Page, label: string, option: string) => {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
};
const multiSelect = async (page: Page, label: string, options: string[]) => {
  await page.getByRole('combobox', { name: label }).click();
  for (const o of options) await page.getByRole('option', { name: o, exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
};

/** The bot's messages to a number, newest last. */
const sentTo = async (companyId: number, whatsappId: number, number: string) => {
  const res = await simulator(`sessions/${companyId}/${whatsappId}`);
  return ((res.body?.outbound ?? []) as { to: string; body: string }[])
    .filter((o) => o.to.startsWith(number))
    .map((o) => o.body);
};

const DAYS = ['Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado', 'Domingo'];

describe('admin setup screens', () => {
  test('from an empty company: settings, two queues with hours and a two-level chatbot tree, users, a connection scanned by QR; the menu routes an inbound chat to the right queue, seen by its user only', async () => {
    const co = await newCompany('setup');
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);

    // Settings: every option of section 9, saved with a toast; the hours tab only for scheduleType company.
    await menu(page, 'Configurações', '/settings');
    for (const label of [
      'Avaliações',
      'Gerenciamento de expediente',
      'Ignorar mensagens de grupos',
      'Aceitar chamadas',
      'Tipo do chatbot',
      'Enviar saudação ao aceitar o atendimento',
      'Enviar mensagem de transferência de fila/atendente',
      'Enviar saudação quando houver somente 1 fila',
    ])
      await page.getByRole('combobox', { name: label }).waitFor();
    await page.getByLabel('Token do Asaas (integração de pagamentos)').waitFor();
    expect(await page.getByRole('tab', { name: 'Horários' }).count()).toBe(0);
    await select(page, 'Gerenciamento de expediente', 'Empresa');
    await toast(page, 'Configuração salva com sucesso.');
    await page.getByRole('tab', { name: 'Horários' }).click();
    await page.getByLabel('Início (Segunda-feira)').waitFor();
    expect(await page.getByLabel('Início (Segunda-feira)').inputValue()).toBe('08:00');
    expect(await page.getByLabel('Fim (Sábado)').inputValue()).toBe('12:00');
    await page.getByLabel('Fim (Sábado)').fill('1300');
    await shot(page, 'admin-settings-schedules');
    await page.getByRole('button', { name: 'Salvar horários' }).click();
    await toast(page, 'Horários salvos com sucesso.');
    const companyHours = await apiCall('GET', `/companies/${co.companyId}/schedules`, { token: co.token });
    expect(companyHours.body.schedules.find((d: { weekdayEn: string }) => d.weekdayEn === 'saturday').endTime).toBe(
      '13:00',
    );
    await page.getByRole('tab', { name: 'Opções' }).click();
    await select(page, 'Gerenciamento de expediente', 'Fila');
    await eventually(async () => (await page.getByRole('tab', { name: 'Horários' }).count()) === 0);
    await shot(page, 'admin-settings');
    const settings = await apiCall('GET', '/settings', { token: co.token });
    expect(settings.body.find((s: { key: string }) => s.key === 'scheduleType').value).toBe('queue');

    // Queues: data tab, palette, hours tab (scheduleType queue) open all day, then the option tree.
    await menu(page, 'Filas & Chatbot', '/queues');
    const queues: Record<string, number> = {};
    for (const [name, order, color] of [
      ['Vendas', '1', '#4CAF50'],
      ['Suporte', '2', '#2196F3'],
    ] as const) {
      await page.getByRole('button', { name: 'Adicionar fila' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^Nome/).fill(name);
      await dialog.getByRole('radio', { name: `Escolher a cor ${color}` }).click();
      expect(await dialog.getByRole('textbox', { name: 'Cor', exact: true }).inputValue()).toBe(color);
      await dialog.getByLabel('Ordem da fila (bot)').fill(order);
      await dialog.getByLabel('Mensagem de saudação').fill(`Você está na fila ${name}.`);
      await dialog.getByRole('tab', { name: 'Horários de atendimento' }).click();
      expect(await dialog.getByLabel('Fim (Segunda-feira)').inputValue()).toBe('18:00');
      expect(await dialog.getByLabel('Início (Domingo)').inputValue()).toBe('00:00');
      for (const day of DAYS) {
        await dialog.getByLabel(`Início (${day})`).fill('0000');
        await dialog.getByLabel(`Fim (${day})`).fill('2359');
      }
      expect(await dialog.getByLabel('Fim (Domingo)').inputValue()).toBe('23:59');
      if (name === 'Suporte') await shot(page, 'admin-queue-hours');
      await dialog.getByRole('tab', { name: 'Dados da fila' }).click();
      await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
      await toast(page, 'Fila salva com sucesso.');
      // the new queue stays open in edit mode so its chatbot options can be added
      await dialog.getByRole('heading', { name: 'Editar fila' }).waitFor();
      const list = await apiCall('GET', '/queue', { token: co.token });
      queues[name] = list.body.find((q: { name: string }) => q.name === name).id;

      if (name === 'Suporte') {
        const addTop = dialog.getByRole('button', { name: 'Adicionar opção' });
        await addTop.click();
        await dialog.getByLabel('Título da opção 1').fill('Financeiro');
        await dialog.getByLabel('Mensagem da opção 1').fill('Assuntos financeiros:');
        await dialog.getByRole('button', { name: 'Salvar opção 1' }).click();
        await toast(page, 'Opção salva.');
        await dialog.getByRole('button', { name: 'Adicionar sub-opção a 1' }).click();
        await dialog.getByLabel('Título da opção 1.1').fill('Boletos');
        await dialog.getByLabel('Mensagem da opção 1.1').fill('Envie o número do seu boleto.');
        await dialog.getByRole('button', { name: 'Salvar opção 1.1' }).click();
        await addTop.click();
        await dialog.getByLabel('Título da opção 2').fill('Temporária');
        await dialog.getByRole('button', { name: 'Salvar opção 2' }).click();
        await addTop.click();
        await dialog.getByLabel('Título da opção 3').fill('Técnico');
        await dialog.getByLabel('Mensagem da opção 3').fill('Descreva o problema.');
        await dialog.getByRole('button', { name: 'Salvar opção 3' }).click();
        // a move while an option's first save is on its way is not sent for it (it has no id yet):
        // wait until the three options are stored
        const readTree = async () => {
          const r = await apiCall('GET', `/queue-options?queueId=${queues.Suporte}&parentId=-1`, { token: co.token });
          return (r.body as { title: string; option: string; children?: { title: string }[] }[])
            .map((o) => `${o.option}:${o.title}:${(o.children ?? []).map((c) => c.title).join(',')}`)
            .sort();
        };
        await eventually(async () => (await readTree()).length === 3);
        // reorder: Técnico goes up to 2, then the temporary option (now 3) is deleted
        await dialog.getByRole('button', { name: 'Mover opção 3 para cima' }).click();
        await dialog.getByLabel('Título da opção 2').and(dialog.locator('input[value="Técnico"]')).waitFor();
        await dialog.getByRole('button', { name: 'Excluir opção 3' }).click();
        await page.getByRole('button', { name: 'Confirmar' }).click();
        await page.getByRole('heading', { name: 'Tem certeza?' }).waitFor({ state: 'hidden' });
        await page.getByLabel('Título da opção 3').waitFor({ state: 'detached' });
        expect(await page.getByLabel('Título da opção 2').inputValue()).toBe('Técnico');
        await shot(page, 'admin-queue-modal');
        // the move's saves may still be on their way when the page already shows the new order
        const expected = ['1:Financeiro:Boletos', '2:Técnico:'];
        await eventually(async () => JSON.stringify(await readTree()) === JSON.stringify(expected)).catch(
          () => undefined,
        );
        expect(await readTree()).toEqual(expected);
      }
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.getByRole('cell', { name: 'Suporte', exact: true }).waitFor();
    await shot(page, 'admin-queues');

    // Users: one per queue, through the user modal of 2.14.
    await menu(page, 'Usuários', '/users');
    const people = {
      Bruna: { email: `bruna-${unique()}@e2e.dev`, queue: 'Suporte' },
      Carlos: { email: `carlos-${unique()}@e2e.dev`, queue: 'Vendas' },
    };
    for (const [name, p] of Object.entries(people)) {
      await page.getByRole('button', { name: 'Adicionar usuário' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^Nome/).fill(name);
      await dialog.getByLabel('E-mail').fill(p.email);
      await dialog.getByLabel('Senha').fill('secret123');
      await multiSelect(page, 'Filas', [p.queue]);
      await select(page, 'Ver chamados sem fila', 'Habilitado');
      if (name === 'Bruna') await shot(page, 'admin-user-modal');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await toast(page, 'Usuário salvo com sucesso.');
      await page.getByRole('cell', { name: p.email }).waitFor();
    }
    await shot(page, 'admin-users');

    // Connection: add with both queues and a greeting, scan the QR, live status.
    await menu(page, 'Conexões', '/connections');
    await page.getByRole('button', { name: 'Adicionar WhatsApp' }).click();
    const cdialog = page.getByRole('dialog');
    await cdialog.getByLabel(/^Nome/).fill('Principal');
    await cdialog.getByLabel('Mensagem de saudação').fill('Olá! Escolha um setor:');
    await multiSelect(page, 'Filas', ['Vendas', 'Suporte']);
    expect(await cdialog.getByLabel('Máximo de envios do chatbot').inputValue()).toBe('3');
    await shot(page, 'admin-connection-modal');
    await cdialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Conexão salva com sucesso.');
    const row = page.getByRole('row').filter({ hasText: 'Principal' });
    await row.getByRole('button', { name: 'QR CODE' }).click({ timeout: 30_000 });
    const qr = page.getByRole('img', { name: 'QR Code da conexão Principal' });
    await qr.waitFor();
    expect(await qr.getAttribute('width')).toBe('256');
    await shot(page, 'admin-qrcode');
    const whatsappId = (await apiCall('GET', '/whatsapp', { token: co.token })).body[0].id as number;
    const scanned = await simulator(`sessions/${co.companyId}/${whatsappId}/scan`, {
      number: `5511977${String(co.companyId).padStart(6, '0')}`,
    });
    expect(scanned.status).toBe(200);
    // the QR modal closes itself on the session update with an empty qrcode
    await qr.waitFor({ state: 'detached', timeout: 20_000 });
    await row.getByRole('button', { name: 'Desconectar' }).waitFor({ timeout: 20_000 });
    await row.getByText('Conectado').waitFor();
    expect(await row.textContent()).toMatch(/\d\d\/\d\d\/\d\d \d\d:\d\d/);
    await shot(page, 'admin-connections');

    // An inbound chat gets the greeting and the queue menu; "2" picks Suporte and its options, "1" the sub-menu.
    const customer = `55119${String(Date.now()).slice(-8)}`;
    const say = (body: string) =>
      simulator(`sessions/${co.companyId}/${whatsappId}/messages`, { from: customer, body, pushName: 'Cliente Teste' });
    expect((await say('Oi')).status).toBe(200);
    const menuText = await eventually(async () =>
      (await sentTo(co.companyId, whatsappId, customer)).find((b) => b.includes('Vendas')),
    );
    expect(menuText).toContain('Olá! Escolha um setor:');
    expect(menuText).toMatch(/1.*Vendas[\s\S]*2.*Suporte/);
    await say('2');
    const options = await eventually(async () =>
      (await sentTo(co.companyId, whatsappId, customer)).find((b) => b.includes('Financeiro')),
    );
    expect(options).toMatch(/1.*Financeiro[\s\S]*2.*Técnico/);
    await say('1');
    await eventually(async () => (await sentTo(co.companyId, whatsappId, customer)).find((b) => b.includes('Boletos')));

    // The new contact is on the contacts page; starting a ticket with it opens the New ticket modal
    // with the contact chosen, and creating it opens its waiting ticket.
    await menu(page, 'Contatos', '/contacts');
    await page.getByRole('button', { name: 'Iniciar atendimento com Cliente Teste' }).click();
    const newTicket = page.getByRole('dialog', { name: 'Criar ticket' });
    await expect(newTicket.getByRole('combobox', { name: 'Pesquisar contato' }).inputValue()).resolves.toMatch(
      /^Cliente Teste - /,
    );
    await newTicket.getByRole('button', { name: 'Criar' }).click();
    await page.waitForURL(/\/tickets\/[\w-]{8,}$/);

    // Session buttons follow the live status: disconnect -> try again / new QR -> QR.
    await menu(page, 'Conexões', '/connections');
    await row.getByRole('button', { name: 'Desconectar' }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await row.getByRole('button', { name: 'Novo QR CODE' }).waitFor({ timeout: 20_000 });
    await row.getByRole('button', { name: 'Tentar novamente' }).waitFor();
    await row.getByText('Desconectado').waitFor();
    await shot(page, 'admin-connections-disconnected');
    await row.getByRole('button', { name: 'Novo QR CODE' }).click();
    await row.getByRole('button', { name: 'QR CODE', exact: true }).waitFor({ timeout: 20_000 });
    await context.close();

    // Bruna (Suporte) sees the waiting ticket; Carlos (Vendas) does not.
    for (const [name, p] of Object.entries(people)) {
      const s = await newPage(browser);
      await loginUI(s.page, p.email, 'secret123');
      await s.page.getByRole('tab', { name: /Aguardando/ }).click();
      if (name === 'Bruna') {
        await s.page.getByText('Cliente Teste').first().waitFor({ timeout: 20_000 });
        await shot(s.page, 'admin-user-sees-ticket');
        // a plain user: connections without session, edit or add buttons; contacts without delete (section 6)
        await s.page.goto('/connections');
        await s.page.getByRole('cell', { name: 'Principal' }).waitFor();
        expect(await s.page.getByRole('button', { name: 'Adicionar WhatsApp' }).count()).toBe(0);
        expect(await s.page.getByRole('button', { name: 'Desconectar' }).count()).toBe(0);
        expect(await s.page.getByRole('button', { name: 'Editar conexão Principal' }).count()).toBe(0);
        await s.page.goto('/contacts');
        await s.page.getByRole('button', { name: 'Editar contato Cliente Teste' }).waitFor();
        expect(await s.page.getByRole('button', { name: 'Excluir contato Cliente Teste' }).count()).toBe(0);
      } else {
        await s.page.getByText('Nenhum atendimento encontrado.').first().waitFor({ timeout: 20_000 });
        expect(await s.page.getByText('Cliente Teste').count()).toBe(0);
      }
      await s.context.close();
    }
  }, 300_000);

  test('contacts: import an .xlsx of 500 rows with 3 bad ones (497 created, 3 errors listed), infinite scroll, search, export CSV', async () => {
    const co = await newCompany('contacts');
    const rows: (string | number)[][] = [['name', 'number', 'email']];
    for (let i = 1; i <= 497; i++) rows.push([`Contato ${i}`, `5511${String(900000000 + i)}`, `contato${i}@e2e.dev`]);
    rows.splice(100, 0, ['Ruim curto', '123', '']);
    rows.splice(250, 0, ['Ruim letras', 'abc', '']);
    rows.splice(400, 0, ['Ruim vazio', '', 'vazio@e2e.dev']);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'contatos');
    const dir = mkdtempSync(join(tmpdir(), 'contacts-'));
    const file = join(dir, 'contatos.xlsx');
    writeFileSync(file, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await menu(page, 'Contatos', '/contacts');
    await page.getByText('Nenhum contato encontrado.').waitFor();
    await page.getByLabel('Importar planilha').setInputFiles(file);
    const result = page.getByRole('dialog', { name: 'Resultado da importação' });
    await result
      .getByText('497 contatos criados.')
      .waitFor({ timeout: 60_000 })
      .catch(async (err) => {
        await shot(page, 'admin-contacts-import-failed');
        throw err;
      });
    await result.getByText('3 linhas com erro:').waitFor();
    const errors = result.getByRole('list', { name: 'Linhas com erro' }).getByRole('listitem');
    expect(await errors.count()).toBe(3);
    const errorText = await errors.allTextContents();
    for (const name of ['Ruim curto', 'Ruim letras', 'Ruim vazio'])
      expect(errorText.some((t) => t.startsWith(name))).toBe(true);
    // the row errors read as text, not as codes
    expect(errorText.join(' ')).not.toMatch(/number: short/);
    await shot(page, 'admin-contacts-import');
    await result.getByRole('button', { name: 'Fechar' }).click();

    // infinite scroll: a fresh visit shows the first page; more rows load near the bottom of the list
    await page.reload();
    const bodyRows = page.getByRole('table', { name: 'Contatos' }).locator('tbody tr');
    await bodyRows.first().waitFor();
    const before = await bodyRows.count();
    expect(before).toBeLessThan(497);
    await page.getByTestId('page-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await eventually(async () => (await bodyRows.count()) > before);
    await shot(page, 'admin-contacts');

    // search: 500 ms debounce, lower-cased
    await page.getByRole('searchbox', { name: 'Pesquisar contatos' }).fill('CONTATO 497');
    await eventually(
      async () =>
        (await bodyRows.count()) === 1 && (await bodyRows.first().textContent())?.includes('contato497@e2e.dev'),
    );
    await page.getByRole('searchbox', { name: 'Pesquisar contatos' }).fill('');

    // export: every contact, semicolon separated, name;number;email
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('contacts.csv');
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const exported = readCsv(csv, ';');
    expect(exported[0]).toEqual(['name', 'number', 'email']);
    expect(exported).toHaveLength(498);
    expect(exported).toContainEqual(['Contato 1', '5511900000001', 'contato1@e2e.dev']);
    expect(exported).toContainEqual(['Contato 497', '5511900000497', 'contato497@e2e.dev']);
    expect(exported.some(([name]) => name?.startsWith('Ruim'))).toBe(false);
    await context.close();
  }, 240_000);

  test('tags (chips, ticket counts, name of at least 3, kanban flag for admins) and quick messages (media name with underscores)', async () => {
    const co = await newCompany('tags');
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);

    await menu(page, 'Tags', '/tags');
    await page.getByRole('button', { name: 'Adicionar tag' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Nome/).fill('VI');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Mensagem muito curta').waitFor();
    await dialog.getByLabel(/^Nome/).fill('VIP');
    await dialog.getByRole('radio', { name: 'Escolher a cor #E91E63' }).click();
    await dialog.getByLabel('Mostrar no Kanban').check();
    await shot(page, 'admin-tag-modal');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Tag salva com sucesso.');
    const tagRow = page.getByRole('row').filter({ hasText: 'VIP' });
    await tagRow.waitFor();
    expect(await tagRow.getByRole('cell').nth(1).textContent()).toBe('0');
    const tags = await apiCall('GET', '/tags', { token: co.token });
    expect(tags.body.tags ?? tags.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'VIP', color: '#E91E63', kanban: 1 })]),
    );
    await shot(page, 'admin-tags');

    await menu(page, 'Respostas rápidas', '/quick-messages');
    await page.getByRole('button', { name: 'Adicionar resposta' }).click();
    const qm = page.getByRole('dialog');
    await qm.getByLabel('Atalho').fill('preco');
    await qm.getByLabel('Mensagem').fill('Nossa tabela de preços segue em anexo.');
    await qm
      .getByLabel('Anexar arquivo')
      .setInputFiles({ name: 'tabela de precos.txt', mimeType: 'text/plain', buffer: Buffer.from('preços') });
    await qm.getByText('tabela_de_precos.txt', { exact: true }).waitFor();
    await shot(page, 'admin-quick-message-modal');
    await qm.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Resposta rápida salva.');
    const qmRow = page.getByRole('row').filter({ hasText: '/preco' });
    await qmRow.getByText('tabela_de_precos.txt').waitFor();
    await shot(page, 'admin-quick-messages');

    // narrow screens: the title, search and buttons wrap above the list
    await page.setViewportSize({ width: 390, height: 780 });
    await page.goto('/quick-messages');
    await page.getByRole('button', { name: 'Adicionar resposta' }).waitFor();
    await shot(page, 'admin-quick-messages-narrow');
    await context.close();
  });
});
