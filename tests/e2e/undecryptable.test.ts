import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, realtimeUp, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const NOTE = 'Não foi possível ler esta mensagem; peça ao cliente para enviá-la novamente.';

describe('a message that could not be decrypted', () => {
  test('the ticket shows a note asking for it again, and the real message takes its place live', async () => {
    const co = await newCompany('undec');
    const created = await apiCall('POST', '/whatsapp', {
      token: co.token,
      body: { name: 'Principal', isDefault: true },
    });
    const session = `sessions/${co.companyId}/${created.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000037' })).status === 200);
    await eventually(
      async () =>
        (await apiCall('GET', `/whatsapp/${created.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const from = '5511977770037';
    await simulator(`${session}/messages`, { from, pushName: 'Clara', body: 'Bom dia, fiz um pedido ontem' });
    const { wid } = (await simulator(`${session}/undecryptable`, { from, pushName: 'Clara' })).body as { wid: string };
    const pending = await eventually(async () => {
      const list = await apiCall('GET', '/tickets?status=pending&showAll=true', { token: co.token });
      return list.body.tickets?.[0] as { id: number; uuid: string } | undefined;
    });
    const me = await apiCall('GET', '/auth/me', { token: co.token });
    await apiCall('PUT', `/tickets/${pending.id}`, { token: co.token, body: { status: 'open', userId: me.body.id } });

    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${pending.uuid}`);
    const log = page.getByRole('log');
    await log.getByText('Bom dia, fiz um pedido ontem').waitFor();
    await log.getByText(NOTE).waitFor();
    await realtimeUp(page);
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/undecryptable.png' });

    // the sender's phone sends it again, decrypted, with the same id
    await simulator(`${session}/messages`, { from, wid, pushName: 'Clara', body: 'Segue o número do pedido: 4471' });
    await log.getByText('Segue o número do pedido: 4471').waitFor();
    await log.getByText(NOTE).waitFor({ state: 'detached' });
    expect(await page.getByTestId('message').count()).toBe(2);
    await page.screenshot({ path: '/tmp/shots/undecryptable-replaced.png' });
    await context.close();
  });
});
