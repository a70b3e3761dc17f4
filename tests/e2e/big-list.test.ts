import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, loginUI, newCompany, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('speed: a list of 10,000 tickets (issue 4)', () => {
  test('is virtualized: a few dozen rows in the DOM, the last ticket reached by scrolling', async () => {
    const co = await newCompany('big');
    const { context, page } = await newPage(browser);
    // The list's rendering is under test here, so the 10,000 rows are served by the browser itself.
    const tickets = Array.from({ length: 10_000 }, (_, i) => ({
      id: i + 1,
      uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      status: 'open',
      userId: co.userId,
      user: { id: co.userId, name: co.name },
      queueId: null,
      queue: null,
      contactId: i + 1,
      contact: { id: i + 1, name: `Cliente ${i + 1}`, number: `55119${String(i).padStart(8, '0')}`, profilePicUrl: '' },
      lastMessage: `mensagem ${i + 1}`,
      unreadMessages: 0,
      tags: [],
      updatedAt: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
    }));
    await page.route(/\/api\/tickets\?.*status=open/, (route) => route.fulfill({ json: { tickets, hasMore: false } }));
    await loginUI(page, co.email, co.password);
    await page.getByRole('button', { name: 'Cliente 1', exact: true }).waitFor();
    await page
      .getByRole('tab', { name: /Atendendo/ })
      .getByText('999+')
      .waitFor();
    const rows = await page.getByRole('listitem').count();
    expect(rows).toBeLessThan(80);
    const list = page.getByRole('list', { name: 'Atendendo' });
    await list.hover();
    for (
      let i = 0;
      i < 60 && (await page.getByRole('button', { name: 'Cliente 10000', exact: true }).count()) === 0;
      i++
    ) {
      await page.mouse.wheel(0, 60_000);
      await page.waitForTimeout(50);
    }
    await page.getByRole('button', { name: 'Cliente 10000', exact: true }).waitFor({ timeout: 5000 });
    expect(await page.getByRole('listitem').count()).toBeLessThan(80);
    await context.close();
  });
});
