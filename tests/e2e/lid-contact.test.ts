import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const NO_NUMBER = 'sem número (ID do WhatsApp)';

describe('a customer WhatsApp knows only by its @lid id', () => {
  test('the ticket and the contact read its push name and "sem número", and the contact is edited without a number', async () => {
    const co = await newCompany('lid');
    const created = await apiCall('POST', '/whatsapp', {
      token: co.token,
      body: { name: 'Principal', isDefault: true },
    });
    const session = `sessions/${co.companyId}/${created.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000038' })).status === 200);
    await eventually(
      async () =>
        (await apiCall('GET', `/whatsapp/${created.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    await simulator(`${session}/messages`, { from: '212345678901234@lid', pushName: 'Renata', body: 'Oi, tudo bem?' });
    const pending = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?status=pending&showAll=true', { token: co.token });
      return list.body.tickets?.[0] as { id: number; uuid: string } | undefined;
    });
    const me = await apiCall('GET', '/auth/me', { token: co.token });
    await apiCall('PUT', `/tickets/${pending.id}`, { token: co.token, body: { status: 'open', userId: me.body.id } });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${pending.uuid}`);
    await page.getByRole('log').getByText('Oi, tudo bem?').waitFor();
    await realtimeUp(page);
    const header = page.getByRole('button', { name: 'Dados do contato' });
    await header.getByText('Renata').waitFor();
    await header.getByText(NO_NUMBER).waitFor();
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/lid-ticket.png' });

    // the contact drawer: no blank number, and the edit saves with the number left empty
    await header.click();
    await page.getByRole('button', { name: 'Fechar dados do contato' }).waitFor();
    // the header's line and the drawer's, where a number would be
    await page.getByText(NO_NUMBER).nth(1).waitFor();
    await page.screenshot({ path: '/tmp/shots/lid-drawer.png' });
    await page.getByRole('button', { name: 'Editar contato' }).click();
    const modal = page.getByRole('dialog', { name: 'Editar contato' });
    await modal.getByLabel('Nome').fill('Renata Lima');
    await modal.getByText(NO_NUMBER).waitFor();
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await modal.waitFor({ state: 'detached' });
    const contact = await eventually(async () => {
      const list = await apiCall('GET', '/contacts?searchParam=Renata', { token: co.token });
      return list.body.contacts?.find((c: { name: string }) => c.name === 'Renata Lima');
    });
    expect(contact).toMatchObject({ number: '', lid: '212345678901234' });
    await context.close();
  });
});
