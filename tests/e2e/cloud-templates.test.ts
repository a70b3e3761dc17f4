import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, setItemFields, shot } from './browser';
import { cloudConnection, digits, meta } from './cloud';

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
    {
      type: 'BODY',
      text: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.',
      example: { body_text: [['Maria', '#123']] },
    },
    { type: 'FOOTER', text: 'Loja' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Ok' }] },
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
      text: 'Oi {{first_name}}! Seu protocolo é {{protocol}}. Use o cupom {{coupon}}.',
      example: {
        body_text_named_params: [
          { param_name: 'first_name', example: 'Maria' },
          { param_name: 'protocol', example: '2027010142' },
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
const REJECTED = {
  name: 'oferta_antiga',
  language: 'pt_BR',
  status: 'REJECTED',
  category: 'MARKETING',
  rejected_reason: 'INVALID_FORMAT',
  components: [{ type: 'BODY', text: 'Oferta imperdível' }],
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
const NEW_ARRIVAL = {
  name: 'novidades',
  language: 'es',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Nuevos productos en la tienda' }],
};

describe('Cloud API message templates (issue 36)', () => {
  test('an admin sees the templates and syncs them; outside the window an attendant sends one, filled, and Meta receives it', async () => {
    const co = await newCompany('cloudtpl');
    // a new cloud connection syncs its templates at once
    const line = await cloudConnection(co.token, {
      templates: [ORDER_UPDATE, WELCOME, PENDING, REJECTED, MEDIA_HEADER],
    });
    const { phoneNumberId } = line;

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto('/connections');
    await page.getByRole('button', { name: 'Modelos da conexão Oficial' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modelos de Oficial' });
    await dialog.waitFor();
    const row = (name: string) => dialog.getByRole('row', { name: new RegExp(name) });
    await row('order_update').getByText('Aprovado').waitFor();
    await expect(row('order_update').textContent()).resolves.toMatch(/pt_BR.*Utilidade/);
    await row('promo_natal').getByText('Em análise').waitFor();
    await row('oferta_antiga').getByText('Rejeitado').waitFor();
    await row('oferta_antiga').getByText('Motivo: INVALID_FORMAT').waitFor();
    await row('catalogo').getByText('Não pode ser enviado daqui: cabeçalho com mídia').waitFor();
    await dialog.getByText(/^Última sincronização: \d\d\/\d\d\/\d\d \d\d:\d\d$/).waitFor();
    await shot(page, 'templates-dialog');

    // a template added on Meta's side shows once an admin syncs
    await meta('/_script', {
      phoneNumberId,
      templates: [ORDER_UPDATE, WELCOME, PENDING, REJECTED, MEDIA_HEADER, NEW_ARRIVAL],
    });
    await expect(row('novidades').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Sincronizar agora' }).click();
    await row('novidades').getByText('Aprovado').waitFor();
    await page.getByText('Modelos sincronizados.').waitFor();

    // Meta approves the pending one: the open dialog follows its webhook live
    await realtimeUp(page);
    await page.waitForTimeout(500);
    await meta('/_templateStatus', { phoneNumberId, name: 'promo_natal', language: 'pt_BR', event: 'APPROVED' });
    await row('promo_natal').getByText('Aprovado').waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'detached' });

    // a customer wrote more than a day ago: the window is closed
    const from = `55119${digits(8)}`;
    await meta('/_inbound', { phoneNumberId, from, text: 'Meu pedido já saiu?', name: 'Carla Nunes' });
    const ticket = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?showAll=true&status=pending', { token: co.token });
      return list.body.tickets[0];
    });
    const accepted = await apiCall('PUT', `/tickets/${ticket.id}`, {
      token: co.token,
      body: { status: 'open', userId: co.userId },
    });
    expect(accepted.status).toBe(200);
    await setItemFields(`C#${co.companyId}`, `TICKET#${String(ticket.id).padStart(10, '0')}`, {
      customerMessageAt: new Date(Date.now() - 25 * 3_600_000).toISOString(),
    });
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByRole('timer', { name: 'Janela de 24 h fechada' }).waitFor();
    await page.getByText(/A janela de 24 horas fechou: até o cliente escrever de novo/).waitFor();
    await page.getByRole('button', { name: 'Enviar modelo' }).click();

    const picker = page.getByRole('dialog', { name: 'Enviar modelo' });
    const choices = picker.getByRole('list', { name: 'Modelos aprovados' });
    await choices.getByRole('button', { name: /order_update/ }).waitFor();
    // only what Meta has approved and the product can fill
    await expect(choices.getByRole('button').count()).resolves.toBe(4);
    for (const name of ['boas_vindas', 'novidades', 'promo_natal'])
      await expect(choices.getByRole('button', { name: new RegExp(name) }).count()).resolves.toBe(1);
    await expect(choices.getByRole('button', { name: /order_update/ }).textContent()).resolves.toMatch(
      /pt_BR.*Utilidade/,
    );
    const send = picker.getByRole('button', { name: 'Enviar', exact: true });

    // named parameters that say so start as message variables; the others wait for a value
    await choices.getByRole('button', { name: /boas_vindas/ }).click();
    await expect(picker.getByLabel('Corpo {{first_name}}').inputValue()).resolves.toBe('{{firstName}}');
    await expect(picker.getByLabel('Corpo {{protocol}}').inputValue()).resolves.toBe('{{protocol}}');
    const coupon = picker.getByLabel('Corpo {{coupon}}');
    await expect(coupon.inputValue()).resolves.toBe('');
    await expect(coupon.getAttribute('placeholder')).resolves.toBe('BEMVINDO10');
    await picker
      .getByText(/\{\{name\}\}, \{\{firstName\}\}, \{\{protocol\}\}, \{\{date\}\}, \{\{hora\}\} são preenchidos/)
      .waitFor();
    await expect(send.isDisabled()).resolves.toBe(true);
    await coupon.fill('CARLA10');
    await expect(send.isEnabled()).resolves.toBe(true);

    await picker.getByRole('button', { name: 'Outro modelo' }).click();
    await choices.getByRole('button', { name: /order_update/ }).click();
    const preview = picker.getByRole('region', { name: 'Pré-visualização' });
    await expect(send.isDisabled()).resolves.toBe(true);
    await picker.getByLabel('Cabeçalho {{1}}').fill('#123');
    await picker.getByLabel('Corpo {{1}}').fill('{{firstName}}');
    await expect(send.isDisabled()).resolves.toBe(true);
    await expect(preview.textContent()).resolves.toContain('Olá {{firstName}}, seu pedido {{2}} saiu para entrega.');
    await picker.getByLabel('Corpo {{2}}').fill('#123');
    await expect(preview.textContent()).resolves.toContain('Olá {{firstName}}, seu pedido #123 saiu para entrega.');
    await preview.getByText('Pedido #123').waitFor();
    await preview.getByText('Loja').waitFor();
    await shot(page, 'template-picker');

    await send.click();
    await picker.waitFor({ state: 'hidden' });
    // the conversation shows the template as the customer reads it, the message variable filled
    await page
      .getByRole('log', { name: 'Atendimento' })
      .getByText(/Olá Carla, seu pedido #123 saiu para entrega\./)
      .waitFor();
    await shot(page, 'template-sent');

    // the customer answers: the window opens again and the button waits beside the attach button
    await realtimeUp(page);
    await page.waitForTimeout(500);
    await meta('/_inbound', { phoneNumberId, from, text: 'Obrigada!' });
    await page.getByRole('timer', { name: 'Janela de 24 h: 23 h 59 min' }).waitFor({ timeout: 10_000 });
    await expect(page.getByText(/A janela de 24 horas fechou: até/).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Enviar modelo' }).waitFor();
    await shot(page, 'template-button-window-open');
    await page.getByRole('button', { name: 'Enviar modelo' }).click();
    await choices.getByRole('button', { name: /order_update/ }).waitFor();
    await picker.getByRole('button', { name: 'Cancelar' }).click();
    await picker.waitFor({ state: 'hidden' });

    const sent = await eventually(async () => {
      const requests = await meta<{ method: string; path: string; body?: any }[]>('/_requests');
      return requests.find(
        (r) =>
          r.method === 'POST' &&
          new RegExp(`^/v[\\d.]+/${phoneNumberId}/messages$`).test(r.path) &&
          r.body?.type === 'template',
      );
    });
    expect(sent.body.to).toBe(from);
    expect(sent.body.template).toEqual({
      name: 'order_update',
      language: { code: 'pt_BR' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: '#123' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Carla' },
            { type: 'text', text: '#123' },
          ],
        },
      ],
    });
    await context.close();
  });
});
