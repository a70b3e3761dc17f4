import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, launch, loginUI, newCompany, newPage, shot } from './browser';
import { cloudConnection, digits } from './cloud';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The business account's templates, in the Graph API's shape. */
const ORDER_UPDATE = {
  name: 'order_update',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['#123'] } },
    { type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.' },
  ],
};
const WELCOME = {
  name: 'boas_vindas',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'MARKETING',
  parameter_format: 'NAMED',
  components: [
    {
      type: 'BODY',
      text: 'Oi {{first_name}}! Use o cupom {{coupon}}.',
      example: {
        body_text_named_params: [
          { param_name: 'first_name', example: 'Maria' },
          { param_name: 'coupon', example: 'BEMVINDO10' },
        ],
      },
    },
  ],
};
const PENDING = {
  name: 'promo_natal',
  language: 'pt_BR',
  status: 'PENDING',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Promoção de Natal na Loja!' }],
};
const MEDIA_HEADER = {
  name: 'catalogo',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Veja o novo catálogo' },
  ],
};

describe('campaigns on a Cloud API connection', () => {
  test('a cloud campaign sends an approved template: one is picked, its variables filled, and the campaign keeps them', async () => {
    const co = await newCompany('camptpl');
    // a new cloud connection syncs its templates at once
    await cloudConnection(co.token, {
      templates: [ORDER_UPDATE, WELCOME, PENDING, MEDIA_HEADER],
    });
    const list = await apiCall('POST', '/contact-lists', { token: co.token, body: { name: 'Clientes oficiais' } });
    await apiCall('POST', '/contact-list-items', {
      token: co.token,
      body: { name: 'Carla Nunes', number: `55119${digits(8)}`, contactListId: list.body.id },
    });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    // the campaign screens need the `cshow` storage flag (management.md 2)
    await page.evaluate(() => localStorage.setItem('cshow', 'true'));
    await page.goto('/campaigns');
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    const modal = page.getByRole('dialog', { name: 'Nova campanha' });
    await modal.getByLabel('Nome').fill('Cupom de boas-vindas');
    await modal.getByRole('combobox', { name: 'Lista de contatos' }).click();
    await page.getByRole('option', { name: 'Clientes oficiais' }).click();
    await modal.getByRole('tab', { name: 'Msg. 1' }).waitFor();
    await modal.getByRole('combobox', { name: 'Conexão' }).click();
    await page.getByRole('option', { name: 'Oficial' }).click();

    // a template instead of the message variants; no file list, no attachment
    const chooser = modal.getByRole('combobox', { name: 'Modelo' });
    await chooser.waitFor();
    await expect(modal.getByRole('tab', { name: 'Msg. 1' }).count()).resolves.toBe(0);
    await expect(modal.getByRole('combobox', { name: 'Lista de arquivos' }).count()).resolves.toBe(0);
    await expect(modal.getByRole('button', { name: 'Anexar arquivo' }).count()).resolves.toBe(0);
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await modal.getByText('Escolha um modelo.').waitFor();

    // only what Meta has approved and the product can fill
    await chooser.click();
    await page.getByRole('option', { name: /order_update/ }).waitFor();
    await expect(page.getByRole('option').count()).resolves.toBe(2);
    await page.getByRole('option', { name: /boas_vindas/ }).click();
    await expect(chooser.textContent()).resolves.toBe('boas_vindas · pt_BR');

    // a named parameter that says so starts as its message variable; the coupon waits for a value
    await expect(modal.getByLabel('Corpo {{first_name}}').inputValue()).resolves.toBe('{{firstName}}');
    const coupon = modal.getByLabel('Corpo {{coupon}}');
    await expect(coupon.inputValue()).resolves.toBe('');
    await modal.getByRole('button', { name: 'Salvar' }).click();
    await modal.getByText('Preencha esta variável: a Meta recusa um modelo com variável vazia.').waitFor();
    await coupon.fill('BEMVINDO-');
    await expect(modal.getByText(/Preencha esta variável/).count()).resolves.toBe(0);
    await modal.getByRole('button', { name: 'Inserir {{firstName}}' }).click();
    await expect(coupon.inputValue()).resolves.toBe('BEMVINDO-{{firstName}}');
    const preview = modal.getByRole('region', { name: 'Pré-visualização' });
    await expect(preview.textContent()).resolves.toContain('Oi {{firstName}}! Use o cupom BEMVINDO-{{firstName}}.');
    await shot(page, 'campaign-template');

    await modal.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Campanha salva.').waitFor();
    await modal.waitFor({ state: 'hidden' });

    const campaigns = await apiCall('GET', '/campaigns', { token: co.token });
    const id = campaigns.body.records[0].id as number;
    const saved = await apiCall('GET', `/campaigns/${id}`, { token: co.token });
    expect(saved.status).toBe(200);
    expect(saved.body.template).toEqual({
      name: 'boas_vindas',
      language: 'pt_BR',
      body: { first_name: '{{firstName}}', coupon: 'BEMVINDO-{{firstName}}' },
    });
    expect(saved.body.fileListId).toBeNull();

    // reopened, the form shows the campaign's template and values
    await page
      .getByTestId(`campaign-${id}`)
      .getByRole('button', { name: 'Editar campanha Cupom de boas-vindas' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Editar campanha' });
    await expect.poll(() => edit.getByRole('combobox', { name: 'Modelo' }).textContent()).toBe('boas_vindas · pt_BR');
    await expect(edit.getByLabel('Corpo {{coupon}}').inputValue()).resolves.toBe('BEMVINDO-{{firstName}}');
    await context.close();
  });
});
