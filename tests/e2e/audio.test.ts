import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, simulator } from './browser';

let browser: Browser;
beforeAll(async () => {
  // a fake microphone (a test tone) that needs no permission prompt
  browser = await launch(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
});
afterAll(async () => {
  await browser?.close();
});

describe('audio recording (2.6)', () => {
  test('a recording under 10000 bytes is discarded; a longer one reaches the phone as a voice note', async () => {
    const co = await newCompany('audio');
    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000005' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const contact = await apiCall('POST', '/contacts', {
      token: co.token,
      body: { name: 'Gustavo Reis', number: '5511933332222' },
    });
    const ticket = await apiCall('POST', '/tickets', {
      token: co.token,
      body: { contactId: contact.body.id, userId: co.userId, status: 'open' },
    });
    expect(ticket.status).toBe(201);

    const { context, page } = await newPage(browser);
    await context.grantPermissions(['microphone']);
    await loginUI(page, co.email, co.password);
    await page.goto(`/tickets/${ticket.body.uuid}`);

    await page.getByRole('button', { name: 'Gravar áudio' }).click();
    await page.getByText('Gravando…').waitFor();
    await page.getByRole('button', { name: 'Enviar áudio' }).click();
    await page.getByText('Áudio muito curto, não enviado.').waitFor();

    await page.getByRole('button', { name: 'Gravar áudio' }).click();
    await page.getByText('Gravando…').waitFor();
    await page.waitForTimeout(3000);
    await page.getByRole('button', { name: 'Enviar áudio' }).click();
    await page.getByTestId('message').locator('audio').waitFor({ timeout: 20_000 });
    const voice = await eventually(async () => {
      const snap = await simulator(session);
      return (snap.body?.outbound as { media?: { kind: string; mimetype: string; size: number } }[] | undefined)?.find(
        (m) => m.media?.mimetype.startsWith('audio/'),
      );
    }, 20_000);
    expect(voice.media!.size).toBeGreaterThanOrEqual(10_000);
    await context.close();
  });
});
