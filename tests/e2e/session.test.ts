import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, launch, loginUI, newCompany, newPage, realtimeUp, setItemFields, shot, unique } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('session (attendance.md 4.1)', () => {
  test('an account used elsewhere: the first browser shows the message, clears storage and reloads to /login', async () => {
    const co = await newCompany('elsewhere');
    const first = await newPage(browser);
    await loginUI(first.page, co.email, co.password);
    await first.page.getByRole('tab', { name: 'Abertos' }).waitFor();
    // the socket is open before the second login publishes the event
    await realtimeUp(first.page);

    const second = await newPage(browser);
    await loginUI(second.page, co.email, co.password);

    // the message shows, then the page reloads to /login, which says it again (the toast before the
    // reload lasts a second at most: a test could miss it, and a person could too)
    await first.page.waitForURL('**/login', { timeout: 15_000 });
    await first.page.getByText('Sua conta foi acessada em outro computador.').waitFor({ timeout: 15_000 });
    await shot(first.page, '09-used-elsewhere');
    await second.page.getByRole('tab', { name: 'Abertos' }).waitFor();
    await first.context.close();
    await second.context.close();
  });

  test('an attendant of an expired company cannot log in: "subscription expired on <date>, contact support"', async () => {
    const co = await newCompany('expired');
    // the company's admins sign in restricted, to pay (billing.test.ts); attendants are refused
    const agent = { email: `agent-${unique()}@e2e.dev`, password: 'secret123' };
    const created = await apiCall('POST', '/users', {
      token: co.token,
      body: { name: 'Agent Expired', profile: 'user', ...agent },
    });
    if (created.status !== 201) throw new Error(`create user: ${created.status} ${JSON.stringify(created.body)}`);
    await setItemFields(`C#${co.companyId}`, 'COMPANY', { dueDate: '2026-01-15T12:00:00.000Z' });
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(agent.email);
    await page.getByLabel('Senha').fill(agent.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('Sua assinatura expirou em 15/01/2026. Entre em contato com o suporte.').waitFor();
    await shot(page, '10-expired');
    await context.close();
  });
});
