import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { FleetView } from '#shared/schemas/fleet';
import { apiCall, baseUrl, eventually, launch, loginUI, newCompany, newPage, shot, simulator, unique } from './browser';

/**
 * The operator's fleet page (/fleet) in Chromium: the super user sees the session runners alive, the
 * platform's queues and the sessions; a dead letter is redriven from its queue's row; a company admin
 * has no such menu item. Screenshots: fleet-super.png, fleet-dead-letter.png.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const SUPER = { email: 'admin@admin.com', password: 'admin123' };

async function openFleet(page: Page) {
  await loginUI(page, SUPER.email, SUPER.password);
  await page.getByRole('navigation').getByRole('link', { name: 'Frota do WhatsApp', exact: true }).click();
  await page.waitForURL('**/fleet');
}

/**
 * A campaigns job no consumer can read, sent the way the functions send (SQS, answered by the local
 * stack): every receive fails, so after maxReceiveCount it is a dead letter, as any job failing for good.
 */
async function poisonCampaignJob() {
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: baseUrl(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(new SendMessageCommand({ QueueUrl: `${baseUrl()}/@sqs/campaigns`, MessageBody: 'not a job' }));
  sqs.destroy();
}

async function campaignDeadLetters(token: string) {
  const { body } = await apiCall<FleetView>('GET', '/fleet', { token });
  return body.queues.find((q) => q.name === 'campaigns')?.deadLetters ?? 0;
}

/** A connection of the company, paired with its simulated phone: it ends CONNECTED. */
async function connectedLine(co: { companyId: number; token: string }, name: string) {
  const created = await apiCall('POST', '/whatsapp', { token: co.token, body: { name } });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const number = `55119${String(co.companyId).padStart(4, '0')}${String(id).padStart(4, '0')}`;
  await eventually(async () => (await simulator(`sessions/${co.companyId}/${id}/scan`, { number })).status === 200);
  await eventually(
    async () => (await apiCall('GET', `/whatsapp/${id}`, { token: co.token })).body?.status === 'CONNECTED',
  );
  return id;
}

describe('fleet page', () => {
  test('the super user sees the runners alive, the queues, a held session and one WhatsApp stopped', async () => {
    const co = await newCompany('fleet-lines');
    // the page lists every company's sessions, other files' included: names of this run's own
    const active = `Linha ativa ${unique()}`;
    const parked = `Linha parada ${unique()}`;
    await connectedLine(co, active);
    const stoppedId = await connectedLine(co, parked);
    // logged out on the phone (401): WhatsApp stopped it for good, nothing runs it until a new QR code
    await simulator(`sessions/${co.companyId}/${stoppedId}/drop`, { code: 401 });
    const { token } = (await apiCall('POST', '/auth/login', { body: SUPER })).body;
    await eventually(async () => {
      const { body } = await apiCall<FleetView>('GET', '/fleet', { token });
      return body.sessions.some((s) => s.whatsappId === stoppedId && s.companyId === co.companyId && s.stoppedAt);
    });

    const { context, page } = await newPage(browser);
    await openFleet(page);
    const runners = page.getByRole('table', { name: 'Executores de sessão' });
    await runners.waitFor();
    await expect.poll(() => runners.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
    const queues = page.getByRole('table', { name: 'Filas' });
    await queues.waitFor();
    await expect.poll(() => queues.getByRole('row').filter({ hasText: 'campaigns' }).count()).toBe(1);
    const sessions = page.getByRole('table', { name: 'Sessões' });
    await sessions.getByRole('columnheader', { name: 'Parada em' }).waitFor();
    const held = sessions.getByRole('row').filter({ hasText: active });
    await held.getByRole('cell', { name: 'Conectada', exact: true }).waitFor();
    const stopped = sessions.getByRole('row').filter({ hasText: parked });
    await stopped.getByRole('cell', { name: 'nenhum', exact: true }).waitFor();
    await stopped.getByRole('cell', { name: /^Desconectada pelo celular/ }).waitFor();
    // the stop's date and time, as the page writes its other dates (pt-BR)
    await stopped.filter({ hasText: /\d{2}\/\d{2}\/\d{4}/ }).waitFor();
    await shot(page, 'fleet-super');
    await context.close();
  });

  test('a dead letter is redriven from its queue row, after a confirmation, and the toast says how many moved', async () => {
    const { token } = (await apiCall('POST', '/auth/login', { body: SUPER })).body;
    await poisonCampaignJob();
    await eventually(async () => (await campaignDeadLetters(token)) >= 1);

    const { context, page } = await newPage(browser);
    await openFleet(page);
    const row = page.getByRole('table', { name: 'Filas' }).getByRole('row').filter({ hasText: 'campaigns' });
    const redrive = row.getByRole('button', { name: 'Reprocessar' });
    await redrive.waitFor();
    await shot(page, 'fleet-dead-letter');

    await redrive.click();
    const dialog = page.getByRole('dialog', { name: 'Reprocessar as falhas definitivas' });
    await dialog.getByRole('button', { name: 'Reprocessar' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /\d+ mensage(m|ns) devolvidas? à fila campaigns/ })
      .waitFor();
    await dialog.waitFor({ state: 'hidden' });
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
