import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, launch, loginUI, newCompany, newPage, shot } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('contacts page: filter by a custom field (issue 40 item 1)', () => {
  test('an attendant picks a field, then a value suited to its type, and the list holds the contacts that have it', async () => {
    const co = await newCompany('field-filter');
    const define = (body: Record<string, unknown>) => apiCall('POST', '/custom-fields', { token: co.token, body });
    expect((await define({ entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] })).status).toBe(
      201,
    );
    expect((await define({ entity: 'contact', name: 'VIP', type: 'checkbox' })).status).toBe(201);
    const people = [
      { name: 'Ana Ouro', number: '5511911110001', customFields: { plano: 'Ouro', vip: true } },
      { name: 'Bia Bronze', number: '5511911110002', customFields: { plano: 'Bronze', vip: false } },
      { name: 'Caio Sem', number: '5511911110003' },
    ];
    for (const body of people) expect((await apiCall('POST', '/contacts', { token: co.token, body })).status).toBe(201);

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/contacts');
    const table = page.getByRole('table', { name: 'Contatos' });
    await table.getByText('Caio Sem').waitFor();

    const filter = page.getByRole('group', { name: 'Filtrar por campo' });
    await filter.getByRole('combobox', { name: 'Campo' }).click();
    await page.getByRole('option', { name: 'Plano' }).click();
    // no value yet: every contact with a plan
    await table.getByText('Caio Sem').waitFor({ state: 'detached' });
    await table.getByText('Bia Bronze').waitFor();
    await filter.getByRole('combobox', { name: 'Valor' }).click();
    await page.getByRole('option', { name: 'Ouro' }).click();
    await table.getByText('Bia Bronze').waitFor({ state: 'detached' });
    await table.getByText('Ana Ouro').waitFor();
    await shot(page, '70-contacts-field-filter');

    // a checkbox field offers yes and no
    await filter.getByRole('combobox', { name: 'Campo' }).click();
    await page.getByRole('option', { name: 'VIP' }).click();
    await filter.getByRole('combobox', { name: 'Valor' }).click();
    await page.getByRole('option', { name: 'Não' }).click();
    await table.getByText('Ana Ouro').waitFor({ state: 'detached' });
    await table.getByText('Bia Bronze').waitFor();

    // back to all contacts
    await filter.getByRole('combobox', { name: 'Campo' }).click();
    await page.getByRole('option', { name: 'Todos os contatos' }).click();
    await table.getByText('Caio Sem').waitFor();
    expect(await table.getByRole('row').count()).toBe(4);
    await context.close();
  });
});
