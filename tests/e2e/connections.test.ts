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

describe('shell: live connection warning and dashboard', () => {
  test('the Connections item shows a warning badge while a connection waits for its QR scan, and loses it once connected (live, 2 s after the list changes)', async () => {
    const co = await newCompany('conn');
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    const warning = page.getByLabel('Há conexões que precisam de atenção');
    expect(await warning.count()).toBe(0);

    const created = await apiCall('POST', '/whatsapp', {
      token: co.token,
      body: { name: 'Principal', isDefault: true },
    });
    expect(created.status).toBeLessThan(300);
    await warning.waitFor({ timeout: 20_000 });
    await shot(page, '07-connection-warning');

    const whatsappId = created.body.id as number;
    await eventually(
      async () =>
        (await simulator(`sessions/${co.companyId}/${whatsappId}/scan`, { number: '5511900000001' })).status === 200,
    );
    await warning.waitFor({ state: 'detached', timeout: 45_000 });
    await context.close();
  });

  test('an admin lands on the dashboard with counters, attendants and charts; the select-filter error shows when no period is chosen', async () => {
    const co = await newCompany('dash');
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Em conversa').waitFor();
    await page.getByRole('table', { name: 'Atendentes' }).waitFor();
    await page.getByRole('combobox', { name: 'Tipo de filtro' }).click();
    await page.getByRole('option', { name: 'Filtro por período' }).click();
    await page.getByRole('button', { name: 'Filtrar' }).first().click();
    await page.getByText('Selecione um filtro').waitFor();
    await shot(page, '08-dashboard');
    await context.close();
  });
});
