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

describe('ticket visibility (attendance.md 2.4, 6)', () => {
  test('an attendant opening a ticket outside their queues gets the unauthorized toast and /tickets; the admin peeks at it read-only', async () => {
    const co = await newCompany('vis');
    const sales = await apiCall('POST', '/queue', { token: co.token, body: { name: 'Vendas', color: '#1e88e5' } });
    const billing = await apiCall('POST', '/queue', { token: co.token, body: { name: 'Cobrança', color: '#f4511e' } });
    const attendant = { email: `att-${Date.now()}@e2e.dev`, password: 'secret123' };
    const created = await apiCall('POST', '/users', {
      token: co.token,
      body: { name: 'Atendente Um', ...attendant, profile: 'user', queueIds: [sales.body.id] },
    });
    expect(created.status).toBe(201);
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    await eventually(
      async () =>
        (await simulator(`sessions/${co.companyId}/${wa.body.id}/scan`, { number: '5511900000004' })).status === 200,
    );
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Fernanda Dias', number: '5511944443333' },
    });
    const ticket = await apiCall('POST', '/tickets', {
      token: co.token,
      body: { contactId: contact.body.id, queueId: billing.body.id, userId: co.userId, status: 'open' },
    });
    expect(ticket.status).toBe(201);
    await apiCall('POST', `/messages/${ticket.body.id}`, {
      token: co.token,
      body: { body: 'Segue o boleto atualizado' },
    });
    await apiCall('PUT', `/tickets/${ticket.body.id}`, {
      token: co.token,
      body: { status: 'pending', userId: null, queueId: billing.body.id },
    });

    const att = await newPage(browser);
    await loginUI(att.page, attendant.email, attendant.password);
    expect(await att.page.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    expect(await att.page.getByText('Administração').count()).toBe(0);
    await att.page.goto(`/tickets/${ticket.body.uuid}`);
    await att.page.getByText('Você não tem acesso a este atendimento.').waitFor();
    await att.page.waitForURL(/\/tickets$/);
    await shot(att.page, '20-unauthorized');
    await att.context.close();

    const admin = await newPage(browser);
    await loginUI(admin.page, co.email, co.password);
    await admin.page.getByRole('tab', { name: /Aguardando/ }).click();
    const row = admin.page.getByRole('listitem').filter({ hasText: 'Fernanda Dias' });
    await row.getByRole('button', { name: 'Espiar a conversa' }).click();
    const peek = admin.page.getByRole('dialog', { name: /Fernanda Dias/ });
    await peek.getByText('Segue o boleto atualizado').waitFor();
    expect(await peek.getByRole('button', { name: 'Opções da mensagem' }).count()).toBe(0);
    await admin.page.waitForTimeout(400);
    await shot(admin.page, '21-peek');
    await peek.getByRole('button', { name: 'Fechar' }).click();
    await admin.context.close();
  });

  test("an admin promoting a signed-in attendant changes that attendant's menu at once, without a reload", async () => {
    const co = await newCompany('vis-live');
    const attendant = { email: `live-${Date.now()}@e2e.dev`, password: 'secret123' };
    const created = await apiCall('POST', '/users', {
      token: co.token,
      body: { name: 'Atendente Vivo', ...attendant, profile: 'user', queueIds: [] },
    });
    expect(created.status).toBe(201);
    const att = await newPage(browser);
    await loginUI(att.page, attendant.email, attendant.password);
    await att.page.getByRole('link', { name: 'Contatos' }).waitFor();
    expect(await att.page.getByText('Administração').count()).toBe(0);
    // the socket must be registered before the change, or the event has nobody to reach
    await realtimeUp(att.page);
    const promoted = await apiCall('PUT', `/users/${created.body.id}`, { token: co.token, body: { profile: 'admin' } });
    expect(promoted.status).toBe(200);
    await att.page.getByText('Administração').first().waitFor();
    await att.page.getByRole('link', { name: 'Usuários' }).waitFor();
    await att.context.close();
  });
});
