import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, loginUI, newCompany, newPage, shot } from './browser';

/**
 * The operator's fleet page (/fleet) in Chromium: the super user sees the session runners alive and
 * the sessions they hold; a company admin has no such menu item. Screenshot: fleet-super.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('fleet page', () => {
  test('the super user sees the runners alive with their sessions', async () => {
    const { context, page } = await newPage(browser);
    await loginUI(page, 'admin@admin.com', 'admin123');
    await page.getByRole('navigation').getByRole('link', { name: 'Frota do WhatsApp', exact: true }).click();
    await page.waitForURL('**/fleet');
    const runners = page.getByRole('table', { name: 'Executores de sessão' });
    await runners.waitFor();
    await expect.poll(() => runners.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
    await page.getByRole('table', { name: 'Sessões' }).waitFor();
    await shot(page, 'fleet-super');
    await context.close();
  });

  test('a company admin has no fleet item in the menu', async () => {
    const co = await newCompany('fleet-admin');
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().waitFor();
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Frota do WhatsApp' }).count()).toBe(0);
    await context.close();
  });
});
