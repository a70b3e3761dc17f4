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

describe('snooze (issue 40 item 6)', () => {
  test('the ticket menu snoozes an open ticket: it moves to the Snoozed tab, and comes back marked when the customer writes', async () => {
    const co = await newCompany('snooze');
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000007' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const number = `55119${String(Date.now()).slice(-8)}`;
    const contact = await apiCall('POST', '/contacts', { token: co.token, body: { name: 'Renata Souza', number } });
    expect(contact.status).toBe(201);
    const ticket = await apiCall('POST', '/tickets', {
      token: co.token,
      body: { contactId: contact.body.id, whatsappId: wa.body.id, status: 'open' },
    });
    expect(ticket.status).toBe(201);

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${ticket.body.uuid}`);
    await page.getByRole('button', { name: 'Resolver' }).waitFor();

    await page.getByRole('button', { name: 'Opções do ticket' }).click();
    await page.getByRole('menuitem', { name: 'Adiar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adiar atendimento' });
    const choices = dialog.getByRole('radiogroup', { name: 'Até quando' });
    for (const preset of ['Em 1 hora', 'Em 3 horas', 'Amanhã às 9:00', 'Segunda-feira às 9:00'])
      await choices
        .getByRole('radio', { name: new RegExp(`^${preset} \\(\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}\\)$`) })
        .waitFor();
    // a chosen date in the past is refused before asking
    await choices.getByRole('radio', { name: 'Escolher data e hora' }).check();
    await dialog.getByLabel(/^Data e hora/).fill('2020-01-01T09:00');
    await dialog.getByRole('button', { name: 'Adiar' }).click();
    await dialog.getByText('Escolha um horário no futuro, em até 90 dias.').waitFor();
    await choices.getByRole('radio', { name: /^Em 3 horas/ }).check();
    await shot(page, '40-snooze-dialog');
    await dialog.getByRole('button', { name: 'Adiar' }).click();
    await page.getByText('Atendimento adiado.').waitFor();
    await page.waitForURL('**/tickets');

    // out of Atendendo, in Adiados
    const row = page.getByRole('button', { name: /^Renata Souza/ });
    await row.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: /Adiados/ }).click();
    await page.getByRole('button', { name: /^Renata Souza/ }).waitFor();
    await shot(page, '41-snoozed-tab');

    // the customer writes: it wakes, leaves Adiados and is back in Atendendo, marked
    await simulator(`${session}/messages`, { from: number, body: 'Oi, alguma novidade?' });
    await page.getByRole('button', { name: /^Renata Souza/ }).waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('tab', { name: /Atendendo/ }).click();
    // the mark: in the row's accessible name, and shown as an icon
    const woke = page.getByRole('button', { name: 'Renata Souza, Voltou do adiamento: o cliente escreveu' });
    await woke.waitFor();
    await woke.locator('svg[aria-label="Voltou do adiamento: o cliente escreveu"]').waitFor();
    await shot(page, '42-snooze-woke');
    await context.close();
  });
});
