import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, baseUrl, eventually, launch, loginUI, newCompany, newPage, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Loads of a page that lists the company's connections, each racing the line's live health reports. */
const LOADS = 12;

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
    // The line reports its health after every probe (`whatsappSession` events to admins); the test
    // stack probes when asked, so the test asks twice a second while the pages load. An event applied
    // while GET /whatsapp is in flight makes SWR drop that answer: without a new fetch the list stayed
    // empty for good (4 of 20 loads on a 2-core machine).
    let probing = true;
    const probes = (async () => {
      while (probing) {
        await fetch(`${baseUrl()}/@runners/health-check`, { method: 'POST' });
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    const missing: number[] = [];
    for (let load = 1; load <= LOADS; load++) {
      await page.goto('/messages-api');
      const form = page.getByRole('region', { name: 'Testar envio de texto' });
      await form.waitFor();
      await page.waitForTimeout(1500);
      await form.getByRole('combobox', { name: 'Conexão' }).click();
      const shown = await page
        .getByRole('option', { name: /^Linha viva/ })
        .waitFor({ timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
      await page.keyboard.press('Escape');
      if (!shown) missing.push(load);
    }
    probing = false;
    await probes;
    expect(missing, 'page loads whose connection list stayed empty').toEqual([]);
    await context.close();
  });
});
