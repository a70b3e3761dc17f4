import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { inject, onTestFailed } from 'vitest';

export const baseUrl = () => inject('baseUrl');

const SHOTS = resolve(import.meta.dirname, 'screenshots');

/** Debian's chromium, headless, with the quiet flags a CI box needs. */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

/**
 * A new context and page. Service workers are blocked unless a test asks for them (`serviceWorkers:
 * 'allow'`, as pwa.test.ts does): the app's worker precaches the whole build (~3 MB) in every fresh
 * context, about 25 s of CPU on a 2-core machine, which no other test needs. The page asks for
 * reduced motion unless a test says otherwise.
 */
export async function newPage(
  browser: Browser,
  opts: {
    width?: number;
    height?: number;
    locale?: string;
    colorScheme?: 'light' | 'dark';
    serviceWorkers?: 'allow' | 'block';
    reducedMotion?: 'reduce' | 'no-preference';
  } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 800 },
    locale: opts.locale ?? 'pt-BR',
    colorScheme: opts.colorScheme ?? 'light',
    serviceWorkers: opts.serviceWorkers ?? 'block',
    // the app honours the system's "reduce motion" (web/src/theme/theme.ts): no dialog, menu or
    // drawer waits out its transition before the test may click it, and the browser paints less
    reducedMotion: opts.reducedMotion ?? 'reduce',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[browser error]', err.message));
  // a failing test leaves a picture of each of its pages (failed-<test>-<n>.png) to see what was on screen
  try {
    onTestFailed(async ({ task }) => {
      if (page.isClosed()) return;
      const name = `failed-${task.name.replace(/[^\w]+/g, '-').slice(0, 60)}-${Date.now()}`;
      await shot(page, name).catch(() => undefined);
      console.error(`[e2e] screenshot of the failing page: tests/e2e/screenshots/${name}.png (${page.url()})`);
    });
  } catch {
    // outside a running test (a suite hook): nothing to register
  }
  return { context, page };
}

/** The page's next request for `pathname` is answered `ms` late (a slow network), whatever the page does meanwhile. */
export async function answerLate(page: Page, pathname: string, ms = 1500) {
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      await new Promise((r) => setTimeout(r, ms));
      await route.continue();
    },
    { times: 1 },
  );
}

/** Screenshots of the main screens, kept out of git, looked at after each run. */
export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: false });
}

/** Calls the API directly (set-up the screens under test do not cover). */
export async function apiCall<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export const unique = () => Math.random().toString(36).slice(2, 8);

/** A fresh company (public signup, plan 1) whose admin logs in through the UI in the tests. */
export async function newCompany(label = 'co') {
  const email = `${label}-${unique()}@e2e.dev`;
  const password = 'secret123';
  const name = `Admin ${label}`;
  const res = await apiCall('POST', '/companies/cadastro', {
    body: { companyName: `Company ${label} ${unique()}`, name, email, password, phone: '11999998888', planId: 1 },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const login = await apiCall('POST', '/auth/login', { body: { email, password } });
  return {
    email,
    password,
    name,
    companyId: res.body.company.id as number,
    token: login.body.token as string,
    userId: login.body.user.id as number,
  };
}

export async function loginUI(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
}

/**
 * Waits until the signed-in page's realtime socket is open (the top bar's "Reconectando…" strip is
 * gone): from then on the server's events reach it. Call it once the layout shows.
 */
export async function realtimeUp(page: Page) {
  await page.getByRole('status', { name: 'Reconectando…' }).waitFor({ state: 'detached', timeout: 15_000 });
}

/** The WhatsApp simulator's local endpoints (a fake phone per connection). */
export async function simulator(path: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}/@simulator/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Set-up no API offers (an expired company): one attribute update on the table. */
export async function setItemFields(pk: string, sk: string, fields: Record<string, unknown>) {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const names = Object.keys(fields);
  await doc.send(
    new UpdateCommand({
      TableName: inject('tableName'),
      Key: { pk, sk },
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]])),
    }),
  );
  doc.destroy();
}
