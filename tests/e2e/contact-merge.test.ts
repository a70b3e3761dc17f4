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

describe('contacts: suggested duplicates and merging (issue 27)', () => {
  test('an admin sees a suggested duplicate with its reason, checks what moves and merges the two', async () => {
    const co = await newCompany('merge');
    // a contact typed by hand in the national notation
    const typed = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Ana Lima', number: '(11) 98765-0000' },
    });
    expect(typed.status).toBe(201);
    // the same customer writes on WhatsApp: another contact, with a ticket and a message
    const line = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${line.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900003333' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${line.body.id}`, { token: co.token })).body.status === 'CONNECTED',
    );
    await simulator(`${session}/messages`, { from: '5511987650000', pushName: 'Ana WhatsApp', body: 'Oi, sou a Ana' });
    await eventually(async () => {
      const res = await apiCall('GET', '/contacts?searchParam=Ana', { token: co.token });
      return res.body.contacts?.length === 2;
    });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Duplicados' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contatos duplicados' });
    await dialog.getByText('Mesmo número').waitFor();
    await shot(page, '60-contacts-duplicates');

    await dialog.getByRole('button', { name: 'Mesclar Ana Lima e Ana WhatsApp' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mesclar contatos' });
    // the hand-typed contact (the older one) is kept by default; the WhatsApp one brings its ticket and message
    await expect.poll(() => confirm.getByRole('radio', { name: /Ana Lima/ }).isChecked()).toBe(true);
    await confirm.getByText('1 ticket', { exact: true }).waitFor();
    await confirm.getByText('1 mensagem', { exact: true }).waitFor();
    const mergeButton = confirm.getByRole('button', { name: 'Mesclar' });
    await expect.poll(() => mergeButton.isEnabled()).toBe(true);
    await shot(page, '61-contacts-merge-confirm');
    await mergeButton.click();
    await page.getByText('Contatos mesclados em Ana Lima.').waitFor();
    await confirm.waitFor({ state: 'detached' });
    await dialog.getByText('Nenhum duplicado sugerido.').waitFor();
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'detached' });

    // the list keeps one Ana (the merged one left through the realtime event), and her ticket is hers now
    const table = page.getByRole('table', { name: 'Contatos' });
    await table.getByText('Ana WhatsApp').waitFor({ state: 'detached' });
    expect(await table.getByText('Ana Lima').count()).toBe(1);
    await shot(page, '62-contacts-after-merge');
    const tickets = await apiCall('GET', '/tickets?status=pending&showAll=true', { token: co.token });
    expect(tickets.body.tickets.map((t: any) => t.contact.name)).toEqual(['Ana Lima']);
    await context.close();
  });
});
