import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, eventually, launch, newPage, shot } from './browser';

/** Issue 25, "The inbox on the phone": installable, a service worker, and a clear offline notice. */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const get = (path: string) => fetch(`${baseUrl()}${path}`);

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/** Resolves once a service worker is active (the app shell precached) and controls the page. */
const controlled = (page: Page) =>
  eventually(
    () =>
      page.evaluate(
        async () =>
          (await navigator.serviceWorker.ready).active?.state === 'activated' && !!navigator.serviceWorker.controller,
      ),
    60_000,
  );

describe('installable app', () => {
  test('index.html links a manifest with the name, icons (192, 512, maskable), start_url and standalone display', async () => {
    const html = await (await get('/login')).text();
    const href = html.match(/<link rel="manifest" href="([^"]+)"/)?.[1];
    expect(href).toBeTruthy();
    const res = await get(href!);
    expect(res.status).toBe(200);
    const manifest = await res.json();
    expect(manifest).toMatchObject({ name: 'Inbox', short_name: 'Inbox', start_url: '/', display: 'standalone' });
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose?: string }[];
    expect(icons.map((i) => `${i.sizes}${i.purpose === 'maskable' ? ' maskable' : ''}`)).toEqual(
      expect.arrayContaining(['192x192', '512x512', '512x512 maskable']),
    );
    for (const icon of icons) {
      const file = await get(icon.src);
      expect(file.status, icon.src).toBe(200);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.subarray(1, 4).toString('latin1'), icon.src).toBe('PNG');
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(bytes), icon.src).toEqual({ width: w, height: h });
    }
  });

  test('the service worker controls the page; offline, a reload still shows the login page and the offline notice', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844, serviceWorkers: 'allow' });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    await controlled(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseUrl()}/sw.js`);
    // Chromium's own verdict: the manifest parses, and nothing but this headless profile stops installing
    const cdp = await context.newCDPSession(page);
    const { errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    // online: the notice's live region is there and empty
    expect(await page.getByRole('status').filter({ hasText: 'Sem conexão' }).count()).toBe(0);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Sem conexão' }).waitFor();
    await shot(page, 'pwa-offline-login');

    // any other address of the app gets the same shell (an anonymous visitor lands on the login page)
    await page.goto('/tickets/123');
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();

    // back online: the notice goes away by itself
    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: 'Sem conexão' }).waitFor({ state: 'detached' });
    await context.close();
  });

  test('a push message shows a notification with its title, body, tag, icon and address', async () => {
    const { context, page } = await newPage(browser, { serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications']);
    await page.goto('/login');
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${baseUrl()}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId: await registrationId,
      data: JSON.stringify({ title: 'Maria', body: 'Oi, tudo bem?', url: '/tickets/42', tag: 'ticket-42' }),
    });
    const shown = await eventually(() =>
      page.evaluate(async () => {
        const [n] = await (await navigator.serviceWorker.ready).getNotifications();
        return n && { title: n.title, body: n.body, tag: n.tag, icon: n.icon, data: n.data };
      }),
    );
    expect(shown).toEqual({
      title: 'Maria',
      body: 'Oi, tudo bem?',
      tag: 'ticket-42',
      icon: `${baseUrl()}/icons/icon-192.png`,
      data: { url: '/tickets/42' },
    });
    await context.close();
  });

  test('an unreachable API shows the offline notice too, in the chosen language', async () => {
    // no service worker here, so the routed (failed) API call is the page's own
    const context = await browser.newContext({ baseURL: baseUrl(), serviceWorkers: 'block', locale: 'en-US' });
    const page = await context.newPage();
    await context.route('**/api/version', (route) => route.abort('connectionrefused'));
    await page.goto('/login');
    await page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor();
    await context.unroute('**/api/version');
    await context.close();
  });
});
