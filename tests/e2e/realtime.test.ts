import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Route } from 'playwright-core';
import { apiCall, baseUrl, eventually, launch, loginUI, newCompany, newPage, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('live events applied to the cache (web/src/realtime/cache.ts liveMutation)', () => {
  test('a page whose data is still loading when a live event arrives shows its data, not an empty list', async () => {
    const co = await newCompany('rt-cache');
    const created = await apiCall('POST', '/whatsapp', {
      token: co.token,
      body: { name: 'Linha viva', isDefault: true },
    });
    const id = created.body.id as number;
    await eventually(
      async () => (await simulator(`sessions/${co.companyId}/${id}/scan`, { number: '5511900077002' })).status === 200,
    );
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);

    // The race, made certain: the page's GET /whatsapp is held in the browser until the line's
    // health report (a `whatsappSession` event, sent to admins after each probe) has reached the
    // page, so the event is applied while the list is still loading. SWR drops the answer of a
    // fetch that was in flight when its key was mutated; without a new fetch the list stayed empty
    // for good (4 of 20 loads on a 2-core machine when this was left to chance).
    let healthEvents = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes('whatsappSession')) healthEvents++;
      }),
    );
    // every GET of the list sent before the event arrived is held, the socket's own refetch on
    // opening included; one sent after it goes through
    const held: Route[] = [];
    await page.route(
      (url) => url.pathname === '/api/whatsapp',
      (route) => (healthEvents === 0 && route.request().method() === 'GET' ? held.push(route) : route.continue()),
    );
    await page.goto('/messages-api');
    const form = page.getByRole('region', { name: 'Testar envio de texto' });
    await form.waitFor();
    await eventually(async () => held.length > 0);
    // the page's socket is open once it is subscribed; probe until a report reaches it
    await eventually(async () => {
      await fetch(`${baseUrl()}/@runners/health-check`, { method: 'POST' });
      return healthEvents > 0;
    });
    for (const route of held) await route.continue();
    await form.getByRole('combobox', { name: 'Conexão' }).click();
    const shown = await page
      .getByRole('option', { name: /^Linha viva/ })
      .waitFor({ timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    expect(shown, 'the connection list, loaded while a live event arrived, shows the connection').toBe(true);
    await context.close();
  });
});
