import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, shot, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('ticket tools: new ticket, contact drawer, transfer, search (2.7, 2.8, 2.9, 2.4)', () => {
  test('new ticket for a new contact, a note in the drawer, transfer to a queue, then found by search', async () => {
    const co = await newCompany('tools');
    expect(
      (await apiCall('POST', '/tags', { token: co.token, body: { name: 'Urgente', color: '#d32f2f' } })).status,
    ).toBe(201);
    const queue = await apiCall('POST', '/queue', { token: co.token, body: { name: 'Financeiro', color: '#00897b' } });
    expect(queue.status).toBe(201);
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000003' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);

    // new ticket: contact search starts at 3 characters; an unknown name offers to add the contact
    await page.getByRole('button', { name: 'Novo' }).click();
    const modal = page.getByRole('dialog', { name: 'Criar ticket' });
    await modal.getByLabel('Pesquisar contato').fill('Da');
    await page.getByText('Digite pelo menos 3 caracteres').waitFor();
    await modal.getByLabel('Pesquisar contato').fill('Daniela Rocha');
    await page.getByRole('option', { name: 'Adicionar contato "Daniela Rocha"' }).click();
    const contactModal = page.getByRole('dialog', { name: 'Adicionar contato' });
    await contactModal.getByLabel(/^Número do WhatsApp/).fill('1234');
    await contactModal.getByRole('button', { name: 'Salvar' }).click();
    await contactModal.getByText('Muito curto!').waitFor();
    await contactModal.getByLabel(/^Número do WhatsApp/).fill('5511966665555');
    await contactModal.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Contato salvo com sucesso.').waitFor();
    await shot(page, '15-new-ticket');
    await modal.getByRole('button', { name: 'Criar' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/);
    await page.getByRole('button', { name: 'Resolver' }).waitFor();

    // contact drawer: data, notes (at least 2 characters), extra info
    await page.getByRole('button', { name: 'Dados do contato' }).click();
    const note = page.getByRole('textbox', { name: 'Nova anotação' });
    await note.fill('x');
    await page.getByRole('button', { name: 'Salvar anotação' }).click();
    await page.getByText('Muito curto!').waitFor();
    await note.fill('Prefere contato pela manhã');
    await page.getByRole('button', { name: 'Salvar anotação' }).click();
    await page.getByText('Anotação adicionada com sucesso.').waitFor();
    await page.getByText('Prefere contato pela manhã').waitFor();
    await shot(page, '16-contact-drawer');
    await page.getByRole('button', { name: 'Fechar dados do contato' }).click();

    // tags: pick one; the list row shows it (tags/sync)
    await page.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Urgente' }).click();
    await page.keyboard.press('Escape');
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Daniela Rocha' })
      .getByText('Urgente')
      .waitFor({ timeout: 15_000 });

    // schedule a message: at least 5 characters, sendAt defaults to now + 1 hour
    await page.getByRole('button', { name: 'Opções do ticket' }).click();
    await page.getByRole('menuitem', { name: 'Agendamento' }).click();
    const schedule = page.getByRole('dialog', { name: 'Agendar mensagem' });
    await schedule.getByLabel(/^Mensagem/).fill('Oi');
    await schedule.getByRole('button', { name: 'Agendar' }).click();
    await schedule.getByText('Mensagem muito curta').waitFor();
    expect(await schedule.getByLabel(/^Data de envio/).inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await schedule.getByLabel(/^Mensagem/).fill('Lembrete: seu boleto vence amanhã');
    await schedule.getByRole('button', { name: 'Agendar' }).click();
    await page.getByText('Agendamento salvo com sucesso.').waitFor();
    const schedules = await apiCall('GET', '/schedules', { token: co.token });
    expect(JSON.stringify(schedules.body)).toContain('Lembrete: seu boleto vence amanhã');

    // transfer: a queue is required; to a queue without a user the ticket goes back to pending
    await page.getByRole('button', { name: 'Opções do ticket' }).click();
    await page.getByRole('menuitem', { name: 'Transferir' }).click();
    const transfer = page.getByRole('dialog', { name: 'Transferir ticket' });
    await transfer.getByRole('button', { name: 'Transferir' }).click();
    await transfer.getByText('Selecione uma fila').waitFor();
    await transfer.getByRole('combobox', { name: /^Fila/ }).click();
    await page.getByRole('option', { name: 'Financeiro' }).click();
    await transfer.getByRole('button', { name: 'Transferir' }).click();
    await page.waitForURL(/\/tickets$/);
    await page.getByRole('tab', { name: /Aguardando/ }).click();
    await page.getByRole('listitem').filter({ hasText: 'Daniela Rocha' }).getByText('Financeiro').waitFor();

    // search (500 ms debounce, lowercased)
    await page.getByRole('tab', { name: 'Busca' }).click();
    await page.getByRole('textbox', { name: 'Buscar atendimento e mensagens' }).fill('DANIELA');
    await page.getByRole('listitem').filter({ hasText: 'Daniela Rocha' }).waitFor();
    await shot(page, '17-search');
    await page.getByRole('textbox', { name: 'Buscar atendimento e mensagens' }).fill('');
    await page.getByRole('tab', { name: /Atendendo/ }).waitFor();
    await context.close();
  });

  test('narrow screen: tabs for the list and the attendance, open a ticket and go back', async () => {
    const co = await newCompany('narrow');
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Eduardo Lima', number: '5511955554444' },
    });
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    expect(wa.status).toBeLessThan(300);
    const ticket = await apiCall('POST', '/tickets', {
      token: co.token,
      body: { contactId: contact.body.id, userId: co.userId, status: 'open' },
    });
    expect(ticket.status).toBe(201);
    const { context, page } = await newPage(browser, { width: 390, height: 800 });
    await loginUI(page, co.email, co.password);
    await page.getByRole('button', { name: 'Eduardo Lima' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/);
    await page.getByRole('tab', { name: 'Atendimento', selected: true }).waitFor();
    await page.getByRole('textbox', { name: 'Digite uma mensagem' }).waitFor();
    await shot(page, '18-narrow-ticket');
    await page.getByRole('button', { name: 'Voltar' }).click();
    await page.waitForURL(/\/tickets$/);
    await page.getByRole('button', { name: 'Eduardo Lima' }).waitFor();
    await context.close();
  });
});
