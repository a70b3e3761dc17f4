import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, launch, loginUI, newCompany, newPage, shot, unique } from './browser';

/**
 * The audit trail page (/audit) in Chromium: an admin reads their company's entries in plain words,
 * filters them; the super user reads every company's; attendants have no such menu item.
 * Screenshots: tests/e2e/screenshots/audit-*.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const openAudit = async (page: Page) => {
  await page.getByRole('navigation').getByRole('link', { name: 'Auditoria', exact: true }).click();
  await page.waitForURL('**/audit');
  await page.getByRole('table', { name: 'Auditoria' }).waitFor();
};
const rows = (page: Page) => page.getByRole('table', { name: 'Auditoria' }).locator('tbody tr');

describe('audit trail page', () => {
  test("an admin sees their company's actions in words, with who, address and masked changes, and filters them", async () => {
    const co = await newCompany('audit');
    const token = co.token;
    await apiCall('POST', '/contacts', { token, body: { name: 'Maria Auditada', number: '5511975550001' } });
    await apiCall('GET', '/contacts?export=true&limit=100', { token });
    await apiCall('POST', '/contacts/upload', {
      token,
      body: [
        { name: 'Ana Import', number: '5511975550002' },
        { name: 'x', number: 'bad' },
      ],
    });
    const line = await apiCall('POST', '/whatsapp', { token, body: { name: `Linha ${unique()}` } });
    await apiCall('PUT', `/whatsapp/${line.body.id}`, { token, body: { token: `novo-token-${unique()}-fim4321` } });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await openAudit(page);
    await expect.poll(() => rows(page).count()).toBeGreaterThanOrEqual(3);
    const table = page.getByRole('table', { name: 'Auditoria' });
    await table.getByText('Dados exportados').waitFor();
    await table.getByText('Dados importados').waitFor();
    await table.getByText('Token da conexão trocado').waitFor();
    await table.getByText('token: ••••').first().waitFor();
    expect(await table.textContent()).toContain('••••4321');
    expect(await table.textContent()).toContain(co.name);
    await shot(page, 'audit-admin');

    // filter by action: only the import is left
    await page.getByRole('combobox', { name: 'Ação' }).click();
    await page.getByRole('option', { name: 'Dados importados', exact: true }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await table.getByText('criados: 1').waitFor();

    // a day with nothing: the empty message
    await page.getByRole('textbox', { name: 'De', exact: true }).fill('2020-01-01');
    await page.getByRole('textbox', { name: 'Até', exact: true }).fill('2020-01-02');
    await page.getByText('Nenhum registro para estes filtros.').waitFor();
    await context.close();
  });

  test("the super user reads every company's trail, with the company column", async () => {
    const plan = await apiCall('POST', '/auth/login', { body: { email: 'admin@admin.com', password: 'admin123' } });
    const created = await apiCall('POST', '/plans', {
      token: plan.body.token,
      body: { name: `Plano ${unique()}`, users: 2, connections: 1, queues: 1, value: 30 },
    });
    await apiCall('PUT', `/plans/${created.body.id}`, { token: plan.body.token, body: { value: 45 } });
    const { context, page } = await newPage(browser);
    await loginUI(page, 'admin@admin.com', 'admin123');
    await openAudit(page);
    const table = page.getByRole('table', { name: 'Auditoria' });
    await table.getByRole('columnheader', { name: 'Empresa' }).waitFor();
    await table.getByText('Plano alterado').first().waitFor();
    await table.getByText('valor: 30 → 45').waitFor();
    await page.getByText('Todas as empresas: até 31 dias por consulta').waitFor();
    await shot(page, 'audit-super');
    await context.close();
  });

  test('an attendant has no audit item in the menu', async () => {
    const co = await newCompany('audit-agent');
    const email = `agent-${unique()}@e2e.dev`;
    await apiCall('POST', '/users', {
      token: co.token,
      body: { name: 'Agente', email, password: 'secret123', profile: 'user' },
    });
    const { context, page } = await newPage(browser);
    await loginUI(page, email, 'secret123');
    await page.getByRole('navigation').getByRole('link', { name: 'Contatos', exact: true }).waitFor();
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Auditoria' }).count()).toBe(0);
    await context.close();
  });
});
