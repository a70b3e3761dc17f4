import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, shot, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('contacts: import the phone address book (POST /contacts/import)', () => {
  test("an admin imports the default connection's address book; the list fills and a toast counts the new contacts", async () => {
    const co = await newCompany('phonebook');
    const line = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    expect(line.status).toBe(201);
    const session = `sessions/${co.companyId}/${line.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900002222' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${line.body.id}`, { token: co.token })).body.status === 'CONNECTED',
    );
    await simulator(`${session}/address-book`, {
      contacts: [
        { number: '5511955551001', name: 'Agenda Ana' },
        { number: '5511955551002', name: 'Agenda Bruno' },
      ],
    });
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Importar do WhatsApp' }).waitFor();
    // the page's socket must be connected to hear the parts of a small book, imported in milliseconds
    await realtimeUp(page);
    await page.getByRole('button', { name: 'Importar do WhatsApp' }).click();
    await page.getByText('Contatos importados da agenda do telefone: 2').waitFor();
    await page.getByText('Agenda Bruno').waitFor();
    await shot(page, '40-contacts-phone-import');
    // a second import finds nothing new and duplicates nothing; the first outcome's toast sits over
    // the button and waits while the pointer is on it, so the pointer leaves until it has closed
    await page.mouse.move(0, 0);
    await page.getByText('Contatos importados da agenda do telefone: 2').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Importar do WhatsApp' }).click();
    await page.getByText('Contatos importados da agenda do telefone: 0').waitFor();
    expect(await page.getByText('Agenda Ana').count()).toBe(1);
    await context.close();
  });
});
