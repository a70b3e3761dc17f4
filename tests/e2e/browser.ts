import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

const SHOTS = resolve(import.meta.dirname, 'screenshots');

/** Debian's chromium, headless, with the quiet flags a CI box needs. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
}

export async function newPage(browser: Browser, opts: { width?: number; height?: number; locale?: string; colorScheme?: 'light' | 'dark' } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 800 },
    locale: opts.locale ?? 'pt-BR',
    colorScheme: opts.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[browser error]', err.message));
  return { context, page };
}

/** Screenshots of the main screens, kept out of git, looked at after each run. */
export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: false });
}

/** Calls the API directly (set-up the screens under test do not cover). */
export async function apiCall<T = any>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl()}/api${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export const unique = () => Math.random().toString(36).slice(2, 8);
