import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { limiterDay } from '../../functions/lib/campaigns/limiter';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, setItemFields, shot, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('number checks on the contact list page (issue 37, item 4)', () => {
  test("the list page says how many number checks the connection has left today, and why checks wait once they're used up", async () => {
    const co = await newCompany('checks-left');
    const created = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Vendas', isDefault: true } });
    const whatsappId = created.body.id as number;
    await eventually(
      async () =>
        (await simulator(`sessions/${co.companyId}/${whatsappId}/scan`, { number: '5511900007001' })).status === 200,
    );
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${whatsappId}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const list = (await apiCall('POST', '/contact-lists', { token: co.token, body: { name: 'Clientes' } })).body;
    for (const [i, number] of ['5521922220001', '5521922220002', '5521922220003'].entries())
      await apiCall('POST', '/contact-list-items', {
        token: co.token,
        body: { name: `Cliente ${i + 1}`, number, contactListId: list.id },
      });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.evaluate(() => localStorage.setItem('cshow', 'true'));
    await page.goto(`/contact-lists/${list.id}/contacts`);
    // a new connection may check 200 numbers a day; the list's 3 took 3
    const notice = page.getByRole('status').filter({ hasText: 'Verificações de número restantes hoje' });
    await notice
      .getByText('Verificações de número restantes hoje na conexão Vendas: 197 de 200.')
      .waitFor({ timeout: 20_000 });
    await shot(page, 'checks-left');

    // the day's checks used up: a number added now waits, and the page says until when
    await setItemFields(`C#${co.companyId}#CHECKLIMIT`, `W#${whatsappId}`, {
      day: limiterDay(Date.now()),
      checkedToday: 200,
      version: 1000,
    });
    await apiCall('POST', '/contact-list-items', {
      token: co.token,
      body: { name: 'Cliente 4', number: '5521922220004', contactListId: list.id },
    });
    await page
      .getByRole('status')
      .getByText(/As verificações de número de hoje acabaram\. Os números ainda não verificados serão verificados em/)
      .waitFor({ timeout: 20_000 });
    await shot(page, 'checks-waiting');
    expect(
      await page.getByTestId('item-5521922220004').getByRole('img', { name: 'Verificando o WhatsApp' }).count(),
    ).toBe(1);
    await context.close();
  });
});
