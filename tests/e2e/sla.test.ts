import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall, eventually, launch, loginUI, newCompany, newPage, setItemFields, shot, simulator } from './browser';
import { readCsv } from '../csv';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const ticketKey = (companyId: number, id: number) => ({
  pk: `C#${companyId}`,
  sk: `TICKET#${String(id).padStart(10, '0')}`,
});

describe('service levels (issue 24)', () => {
  test('tickets show a live countdown, amber near the deadline and red past it; the dashboard shows the metrics and exports them as CSV', async () => {
    const co = await newCompany('sla');
    const { context, page } = await newPage(browser);
    await loginUI(page, co.email, co.password);

    // the queue's policy in the queue modal: 0 minutes is refused on the field, 30 min / 8 h saved
    await page.goto('/queues');
    await page.getByRole('button', { name: 'Adicionar fila' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Nome/).fill('Suporte SLA');
    await dialog.getByLabel('1ª resposta em (minutos)').fill('0');
    await dialog.getByLabel('Resolução em (horas)').fill('8');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    await dialog.getByText('Inválido').waitFor();
    await dialog.getByLabel('1ª resposta em (minutos)').fill('30');
    await shot(page, 'sla-0-queue-policy');
    await dialog.getByRole('button', { name: 'Salvar', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Editar fila' }).waitFor();
    const queue = {
      body: (await apiCall('GET', '/queue', { token: co.token })).body.find(
        (q: { name: string }) => q.name === 'Suporte SLA',
      ),
    };
    expect(queue.body).toMatchObject({ slaFirstResponseMinutes: 30, slaResolutionHours: 8, slaBusinessHours: false });
    await page.keyboard.press('Escape');

    const wa = await apiCall('POST', '/whatsapp', { token: co.token, body: { name: 'Principal', isDefault: true } });
    const session = `sessions/${co.companyId}/${wa.body.id}`;
    await eventually(async () => (await simulator(`${session}/scan`, { number: '5511900000024' })).status === 200);
    await eventually(
      async () => (await apiCall('GET', `/whatsapp/${wa.body.id}`, { token: co.token })).body?.status === 'CONNECTED',
    );
    const tickets: Record<string, { id: number; uuid: string }> = {};
    for (const [name, number] of [
      ['Amanda Âmbar', '5511955550001'],
      ['Rita Vermelho', '5511955550002'],
      ['Nina Normal', '5511955550003'],
    ] as const) {
      const contact = await apiCall('POST', '/contacts', { token: co.token, body: { name, number } });
      const t = await apiCall('POST', '/tickets', {
        token: co.token,
        body: { contactId: contact.body.id, whatsappId: wa.body.id, queueId: queue.body.id, status: 'open' },
      });
      expect(t.status).toBe(201);
      tickets[name] = t.body;
    }
    // the clock of two of them moved (the API has none): 3 of 30 minutes left, and 1 minute late
    const now = Date.now();
    const amber = ticketKey(co.companyId, tickets['Amanda Âmbar']!.id);
    await setItemFields(amber.pk, amber.sk, {
      slaStartAt: iso(now - 27 * MIN),
      slaFirstResponseDueAt: iso(now + 3 * MIN),
    });
    const red = ticketKey(co.companyId, tickets['Rita Vermelho']!.id);
    await setItemFields(red.pk, red.sk, { slaStartAt: iso(now - 31 * MIN), slaFirstResponseDueAt: iso(now - MIN) });

    // a first response and a close on the third, for the metrics
    expect(
      (await apiCall('POST', `/messages/${tickets['Nina Normal']!.id}`, { token: co.token, body: { body: 'Oi!' } }))
        .status,
    ).toBe(201);

    // the lists are fetched again once the live socket opens (events before it were missed): that
    // refetch must be over before the requests are counted below
    const socket = page.waitForEvent('websocket');
    await page.goto('/tickets');
    await (await socket).waitForEvent('framereceived');
    const row = (name: string) => page.getByRole('listitem').filter({ hasText: name });
    const amberTimer = row('Amanda Âmbar').getByRole('timer');
    await amberTimer.waitFor();
    expect(await amberTimer.getAttribute('data-level')).toBe('amber');
    expect(await amberTimer.getAttribute('aria-label')).toMatch(/^SLA 1ª resposta, perto do prazo: 0[23]:\d\d$/);
    const redTimer = row('Rita Vermelho').getByRole('timer');
    expect(await redTimer.getAttribute('data-level')).toBe('red');
    await expect.poll(() => redTimer.textContent()).toMatch(/1ª resposta: atrasado 01:\d\d/);
    // answered: the countdown is the resolution's, 8 hours away
    const normalTimer = row('Nina Normal').getByRole('timer');
    expect(await normalTimer.getAttribute('data-level')).toBe('normal');
    expect(await normalTimer.textContent()).toMatch(/^Resolução: 7 h 5\d min$/);

    // the countdown ticks in the browser: the text changes with no request for tickets
    await page.waitForLoadState('networkidle');
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/tickets')) requests.push(r.url());
    });
    const before = await amberTimer.textContent();
    await expect.poll(() => amberTimer.textContent(), { timeout: 5000 }).not.toBe(before);
    expect(requests).toEqual([]);
    await shot(page, 'sla-1-ticket-list');

    // the open ticket's header shows the same countdown
    await row('Rita Vermelho').getByRole('button', { name: 'Rita Vermelho' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/);
    // the row's and the header's
    await expect.poll(() => page.getByRole('timer', { name: /prazo vencido/ }).count()).toBe(2);
    await shot(page, 'sla-2-ticket-header');

    // close the answered ticket, then the dashboard: the service-level section and its CSV
    expect(
      (await apiCall('PUT', `/tickets/${tickets['Nina Normal']!.id}`, { token: co.token, body: { status: 'closed' } }))
        .status,
    ).toBe(200);
    await page.goto('/');
    const section = page.getByRole('region', { name: 'Nível de serviço' });
    await section.waitFor();
    await section.getByRole('img', { name: 'Medianas por dia (minutos)' }).waitFor();
    const byAttendant = section.getByRole('table', { name: 'Por atendente' });
    await byAttendant.getByRole('cell', { name: co.name }).waitFor();
    await section.getByRole('tab', { name: 'Por fila' }).click();
    await section.getByRole('table', { name: 'Por fila' }).getByRole('cell', { name: 'Suporte SLA' }).waitFor();
    expect(await section.getByLabel('Prazos vencidos', { exact: true }).textContent()).toBe('0');
    await section.getByRole('heading', { name: 'Nível de serviço' }).scrollIntoViewIfNeeded();
    await shot(page, 'sla-3-dashboard');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^sla-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const rows = readCsv(csv, ',');
    const seconds = expect.stringMatching(/^\d+$/);
    expect(rows[0]!.slice(0, 3)).toEqual(['Dimensão', 'Nome', 'Respostas']);
    expect(rows.map((r) => r.slice(0, 3))).toContainEqual(['Por atendente', co.name, '1']);
    expect(rows.map((r) => r.slice(0, 6))).toContainEqual(['Por fila', 'Suporte SLA', '1', seconds, seconds, '1']);
    expect(rows.map((r) => r.slice(0, 3))).toContainEqual(['Por conexão', 'Principal', '1']);
    // the service levels' total, then the AI agent's and people's rows (issue 39) under their own columns
    expect(rows.at(-3)!.slice(0, 3)).toEqual(['Total', 'Total', '1']);
    expect(rows[0]!.slice(-4)).toEqual([
      'Passados para pessoas',
      'Taxa de passagem (%)',
      'Chamadas à IA',
      'Tokens de IA',
    ]);
    expect(rows.slice(-2).map((r) => r.slice(0, 2))).toEqual([
      ['Agente de IA', 'Agente de IA'],
      ['Pessoas', 'Pessoas'],
    ]);
    await context.close();
  });
});
