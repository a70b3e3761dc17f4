import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import * as XLSX from '@e965/xlsx';
import { format } from 'date-fns';
import {
  apiCall,
  baseUrl,
  eventually,
  launch,
  loginUI,
  newCompany,
  newPage,
  setItemFields,
  shot,
  simulator,
} from './browser';
import { holdTimer } from '../integration/helpers';

/**
 * Issue 11 "Done when": a 200-contact campaign on the simulator, started from the UI, with its
 * report page open. The simulated phone is the witness: one message per contact, none to the
 * numbers without WhatsApp, the spacing of the configured intervals between consecutive sends, and
 * the report following the phone's acks live to 100% and FINALIZADA.
 *
 * Pacing: the e2e stack shrinks a pacing second to CAMPAIGN_SECOND_MS (5 ms, tests/integration/
 * global-setup.ts). The campaign uses messageInterval 20 s (100 ms), a greaterInterval of 120 s
 * (600 ms) after every 40 messages, on a connection 3 days old: still warming up, so the limiter
 * stretches each spacing x1.5 (150 ms and 900 ms) and randomizes it by up to +50%, and its daily
 * cap (100 + 60 x 3 = 280) lets all 200 through. 90 to 115 s of sending 200 on this 2-core machine
 * (each gap is the spacing plus the send path's own time), under 2 minutes for the whole test.
 *
 * Where it runs: in the project `campaign-scale`, not in `npm run test:e2e`: it waits out real
 * pacing (113 s of one of the browser suite's two workers, at 80 contacts, in a run of 7m46). CI runs
 * it with the issue's 200 (`npm run test:campaign-scale`, CAMPAIGN_SCALE_CONTACTS=200) and prints
 * the sends and the gaps; run by itself without the variable it sends to 80 (one greater
 * interval, every check the same).
 */

const SECOND_MS = Number(process.env.CAMPAIGN_SECOND_MS || 5);
const CONTACTS = Number(process.env.CAMPAIGN_SCALE_CONTACTS || 80);
const MESSAGE_INTERVAL = 20;
const LONGER_AFTER = 40;
const GREATER_INTERVAL = 120;
const AGE_DAYS = 3;
// the limiter's warm-up stretch (functions/lib/campaigns/limiter.ts LIMITER.WARMUP_SPACING_FACTOR)
const WARMUP_FACTOR = 1.5;
const NORMAL_MS = MESSAGE_INTERVAL * SECOND_MS * WARMUP_FACTOR;
const GREATER_MS = GREATER_INTERVAL * SECOND_MS * WARMUP_FACTOR;
/**
 * The phone stamps a message when the runner hands it over. The sender starts the next step's wait
 * once a message is in the runner's command queue (functions/lib/campaigns/sender.ts), so only the
 * last hop (queue, runner, phone) can bring two sends closer than their spacing: by this much at
 * most on a busy machine. The slack applies once to a whole window of sends: trip times only shift
 * a window's two ends.
 */
const TRANSPORT_SLACK_MS = 100;
/** Sends per window of the windowed spacing check. */
const WINDOW = 10;
/** 200 sends take about 40 s on a quiet machine; a box shared with other suites may need several times that. */
const FINISH_TIMEOUT_MS = 300_000;
/** Every READ_EVERY-th message is also read on the phone (ack 3). */
const READ_EVERY = 4;

interface Outbound {
  wid: string;
  to: string;
  body: string;
  ack: number;
  at: string;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Company = Awaited<ReturnType<typeof newCompany>>;

async function connected(co: Company, number: string) {
  const created = await apiCall('POST', '/whatsapp', {
    token: co.token,
    body: { name: 'Linha escala', isDefault: true },
  });
  expect(created.status).toBeLessThan(300);
  const id = created.body.id as number;
  const session = `sessions/${co.companyId}/${id}`;
  await eventually(async () => (await simulator(`${session}/scan`, { number })).status === 200);
  await eventually(
    async () => (await apiCall('GET', `/whatsapp/${id}`, { token: co.token })).body?.status === 'CONNECTED',
  );
  return { id, session };
}

function spreadsheet(rows: string[][]) {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'contacts');
  const form = new FormData();
  form.append('file', new Blob([XLSX.write(book, { type: 'array', bookType: 'xlsx' })]), 'escala.xlsx');
  return form;
}

async function upload(token: string, path: string, form: FormData) {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

async function listItems(token: string, contactListId: number) {
  const items: { number: string; isWhatsappValid: boolean | null }[] = [];
  let cursor: string | undefined;
  do {
    const q = `contactListId=${contactListId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await apiCall('GET', `/contact-list-items?${q}`, { token })).body;
    items.push(...page.contacts);
    cursor = page.hasMore ? page.cursor : undefined;
  } while (cursor);
  return items;
}

const outboundOf = async (session: string) =>
  (await simulator(session)).body as { outbound: Outbound[]; repeats: number };
const digits = (jid: string) => jid.split('@')[0]!;

/**
 * The simulated phone acks nothing by itself: this loop plays the recipients' phones, moving each
 * message it sees to delivered (2), and every READ_EVERY-th recipient's to read (3), as they arrive.
 * Without it the limiter would pause the campaign for `noAcks` after 20 sends.
 */
function ackLoop(session: string, readers: Set<string>) {
  const acked = new Set<string>();
  const read = new Set<string>();
  const errors: string[] = [];
  let running = true;
  const done = (async () => {
    let lastLog = Date.now();
    while (running) {
      const { outbound } = await outboundOf(session);
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        console.info(`[campaign-scale] phone has ${outbound.length} messages, ${acked.size} delivered`);
      }
      for (const o of outbound) {
        if (!acked.has(o.wid)) {
          const r = await simulator(`${session}/ack`, { wid: o.wid, ack: 2 });
          if (r.status === 200) acked.add(o.wid);
          else errors.push(`ack 2 ${o.wid}: ${r.status}`);
        }
        if (acked.has(o.wid) && !read.has(o.wid) && readers.has(digits(o.to))) {
          const r = await simulator(`${session}/ack`, { wid: o.wid, ack: 3 });
          if (r.status === 200) read.add(o.wid);
          else errors.push(`ack 3 ${o.wid}: ${r.status}`);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    acked,
    read,
    errors,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

const runTimer = (name: string) => fetch(`${baseUrl()}/@timers/${name}`, { method: 'POST' });

describe('a campaign at scale (issue 11 "Done when")', () => {
  test(
    `${CONTACTS} contacts on the simulator: one message each, paced on the phone, the report live to 100% and FINALIZADA`,
    async () => {
      const co = await newCompany('camp-scale');
      // the numbers imported from a spreadsheet before the line is connected: nobody checked them
      // (isWhatsappValid null), and a campaign sends to every number not known to be without WhatsApp
      const people = Array.from({ length: CONTACTS }, (_, i) => ({
        first: `Pessoa${String(i + 1).padStart(3, '0')}`,
        number: `55219${String(70_000_000 + i + 1)}`,
      }));
      const list = await apiCall('POST', '/contact-lists', { token: co.token, body: { name: 'Base completa' } });
      const rows: string[][] = [['name', 'number', 'email']];
      for (const p of people) rows.push([`${p.first} Silva`, p.number, '']);
      const imported = await upload(co.token, `/contact-lists/${list.body.id}/upload`, spreadsheet(rows));
      expect(imported.status).toBe(200);
      expect(imported.body).toMatchObject({ total: CONTACTS, created: CONTACTS, errors: [] });

      const line = await connected(co, '5511900009009');
      // a connection a few days old: the warm-up still stretches its spacing, its daily cap (280) fits them
      await setItemFields(`C#${co.companyId}`, `WHATSAPP#${String(line.id).padStart(10, '0')}`, {
        createdAt: new Date(Date.now() - AGE_DAYS * 24 * 3600_000 - 3600_000).toISOString(),
      });
      const limitsBefore = (await apiCall('GET', '/campaigns/limits', { token: co.token })).body as any[];
      expect(limitsBefore).toMatchObject([
        { whatsappId: line.id, ageDays: AGE_DAYS, warmingUp: true, dailyCap: 280, sentToday: 0 },
      ]);

      // 3 more numbers, added once the line is up: the runner finds them without WhatsApp, so they get nothing
      const absent = ['5521960000001', '5521960000002', '5521960000003'];
      for (const [i, number] of absent.entries()) {
        await simulator('absent', { number });
        const added = await apiCall('POST', '/contact-list-items', {
          token: co.token,
          body: { name: `Sem Zap ${i + 1}`, number, contactListId: list.body.id },
        });
        expect(added.status).toBe(201);
      }
      await eventually(async () => {
        const items = await listItems(co.token, list.body.id);
        return items.filter((i) => i.isWhatsappValid === false).length === absent.length && items;
      }, 30_000);
      const items = await listItems(co.token, list.body.id);
      expect(items).toHaveLength(CONTACTS + absent.length);
      expect(
        items
          .filter((i) => i.isWhatsappValid === false)
          .map((i) => i.number)
          .sort(),
      ).toEqual(absent);

      const settings = await apiCall('POST', '/campaign-settings', {
        token: co.token,
        body: {
          settings: {
            messageInterval: MESSAGE_INTERVAL,
            longerIntervalAfter: LONGER_AFTER,
            greaterInterval: GREATER_INTERVAL,
          },
        },
      });
      expect(settings.status).toBe(200);

      // the campaign is written in the UI, scheduled for now
      const { context, page } = await newPage(browser);
      await loginUI(page, co.email, co.password);
      await page.evaluate(() => localStorage.setItem('cshow', 'true'));
      await page.goto('/campaigns');
      await page.getByRole('button', { name: 'Nova campanha' }).click();
      const modal = page.getByRole('dialog', { name: 'Nova campanha' });
      await modal.getByLabel('Nome').fill(`Base completa ${CONTACTS}`);
      await modal.getByRole('combobox', { name: 'Conexão' }).click();
      await page.getByRole('option', { name: 'Linha escala' }).click();
      await modal.getByRole('combobox', { name: 'Lista de contatos' }).click();
      await page.getByRole('option', { name: 'Base completa' }).click();
      await modal.getByLabel('Mensagem 1').fill('Olá {{firstName}}, temos ofertas!');
      await modal.getByRole('tab', { name: 'Msg. 2' }).click();
      await modal.getByLabel('Mensagem 2').fill('Oi {{firstName}}, ofertas para você!');
      await modal.getByLabel('Agendamento').fill(format(new Date(Date.now() - 60_000), "yyyy-MM-dd'T'HH:mm"));
      // due once saved, it waits for this test's tick (the report must see it start): no other
      // file's tick may start it meanwhile
      const releaseTimer = await holdTimer('campaigns');
      await modal.getByRole('button', { name: 'Salvar' }).click();
      await page.getByText('Campanha salva.').waitFor();
      const campaign = await eventually(
        async () => (await apiCall('GET', '/campaigns', { token: co.token })).body.records[0],
      );
      expect(campaign.status).toBe('PROGRAMADA');
      const row = page.getByTestId(`campaign-${campaign.id}`);
      await row.getByRole('link', { name: `Relatório de Base completa ${CONTACTS}` }).click();
      await page.getByRole('heading', { name: `Relatório: Base completa ${CONTACTS}` }).waitFor();
      await page.getByTestId('report-status').getByText('Programada').waitFor();

      // the live updates need the realtime socket: the top bar's "Reconectando…" strip is gone once it is up
      await page.getByRole('status', { name: 'Reconectando…' }).waitFor({ state: 'hidden', timeout: 30_000 });

      // from here on the page is only watched: no navigation, and every progress value it shows is kept
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      await page.evaluate(() => {
        const w = window as unknown as { __progress: string[]; __sameDocument: boolean };
        w.__sameDocument = true;
        w.__progress = [];
        const note = () => {
          const text = document.querySelector('[data-testid="report-progress"]')?.textContent ?? '';
          if (text && w.__progress.at(-1) !== text) w.__progress.push(text);
        };
        note();
        new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
      });

      const readers = new Set(people.filter((_, i) => i % READ_EVERY === 0).map((p) => p.number));
      const acks = ackLoop(line.session, readers);
      const started = Date.now();
      try {
        // the due timer starts it (SQS wakes the campaigns timer at scheduledAt in AWS)
        await runTimer('campaigns');
        await page.getByTestId('report-status').getByText('Em andamento').waitFor({ timeout: 60_000 });
        await releaseTimer();
        await expect
          .poll(() => page.getByTestId('report-valid').textContent(), { timeout: 60_000 })
          .toBe(String(CONTACTS));
        await page.getByTestId('report-status').getByText('Finalizada').waitFor({ timeout: FINISH_TIMEOUT_MS });
        await expect.poll(() => page.getByTestId('report-progress').textContent(), { timeout: 60_000 }).toBe('100%');
        await expect.poll(() => page.getByTestId('report-delivered').textContent()).toBe(String(CONTACTS));
        await expect.poll(() => page.getByTestId('report-read').textContent()).toBe(String(readers.size));
        expect(await page.getByTestId('report-failed').textContent()).toBe('0');
      } finally {
        await acks.stop();
      }
      const elapsed = Date.now() - started;
      expect(acks.errors).toEqual([]);

      // live: the same document all along, the progress climbing through the values in between
      expect(navigations).toBe(0);
      const seen = await page.evaluate(() => {
        const w = window as unknown as { __progress: string[]; __sameDocument?: boolean };
        return { progress: w.__progress, same: w.__sameDocument === true };
      });
      expect(seen.same).toBe(true);
      const values = seen.progress.map((p) => Number.parseInt(p, 10));
      expect(values.at(-1)).toBe(100);
      expect(values.filter((v) => v > 0 && v < 100).length).toBeGreaterThanOrEqual(5);
      expect(values[0]).toBe(0);
      // Not asserted: that it never steps back. Concurrent counter updates (the sender's `sent`, the
      // acks' `delivered`) publish their `campaign` events in any order and the report applies the
      // last one to arrive, so the progress can show 14% then 13% for a moment (see the report).
      const drops = values.filter((v, i) => i > 0 && v < values[i - 1]!).length;
      if (drops) console.info(`[campaign-scale] the progress stepped back ${drops} time(s): ${values.join(' ')}`);
      await page.getByRole('progressbar', { name: 'Progresso da campanha' }).waitFor();
      await shot(page, 'campaign-scale-report');

      // exactly one message per contact, none to the numbers without WhatsApp, nothing sent twice
      await new Promise((r) => setTimeout(r, 1500));
      const phone = await outboundOf(line.session);
      const sent = [...phone.outbound].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
      expect(phone.repeats).toBe(0);
      expect(sent).toHaveLength(CONTACTS);
      const byNumber = new Map(people.map((p) => [p.number, p.first]));
      expect(new Set(sent.map((o) => digits(o.to)))).toEqual(new Set(byNumber.keys()));
      for (const o of sent) {
        const first = byNumber.get(digits(o.to));
        expect([`Olá ${first}, temos ofertas!`, `Oi ${first}, ofertas para você!`]).toContain(o.body);
      }
      // a variant per contact, at random among the two filled ones
      const firstVariant = sent.filter((o) => o.body.startsWith('Olá ')).length;
      expect(firstVariant).toBeGreaterThan(CONTACTS * 0.3);
      expect(firstVariant).toBeLessThan(CONTACTS * 0.7);

      // the spacing on the phone: every gap its interval (warm-up stretched; the jitter only adds) and
      // after every 40th message the greater interval, both less the trip-time slack
      const gaps = sent.slice(1).map((o, i) => ({ after: i + 1, ms: Date.parse(o.at) - Date.parse(sent[i]!.at) }));
      const greater = gaps.filter((g) => g.after % LONGER_AFTER === 0);
      const normal = gaps.filter((g) => g.after % LONGER_AFTER !== 0);
      expect(greater.map((g) => g.after)).toEqual(
        Array.from({ length: Math.floor((CONTACTS - 1) / LONGER_AFTER) }, (_, i) => (i + 1) * LONGER_AFTER),
      );
      expect(greater.length).toBeGreaterThanOrEqual(1);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const normalMs = normal.map((g) => g.ms);
      console.info(
        `[campaign-scale] ${CONTACTS} sends in ${elapsed} ms; gaps ms: normal min ${Math.min(...normalMs)} ` +
          `mean ${mean(normalMs).toFixed(1)} max ${Math.max(...normalMs)} (configured ${NORMAL_MS}..${NORMAL_MS * 1.5}); ` +
          `greater ${greater.map((g) => g.ms).join(', ')} (configured ${GREATER_MS}..${GREATER_MS * 1.5})`,
      );
      const minGap = (after: number) => (after % LONGER_AFTER === 0 ? GREATER_MS : NORMAL_MS);
      for (const g of gaps)
        expect(g.ms, `gap after message ${g.after}`).toBeGreaterThanOrEqual(minGap(g.after) - TRANSPORT_SLACK_MS);
      // any WINDOW consecutive sends span at least their spacings (x1.5 warm-up: more than the bare interval)
      for (let i = 0; i + WINDOW <= sent.length; i++) {
        const span = Date.parse(sent[i + WINDOW - 1]!.at) - Date.parse(sent[i]!.at);
        const configured = gaps.slice(i, i + WINDOW - 1).reduce((sum, g) => sum + minGap(g.after), 0);
        expect(span, `messages ${i + 1} to ${i + WINDOW}`).toBeGreaterThanOrEqual(configured - TRANSPORT_SLACK_MS);
      }
      // over the whole run the trip times cancel out: the mean gap is the interval at least
      expect(mean(normalMs)).toBeGreaterThanOrEqual(NORMAL_MS);

      // the limiter counted them on the connection, and paused nothing
      const limitsAfter = (await apiCall('GET', '/campaigns/limits', { token: co.token })).body as any[];
      expect(limitsAfter).toMatchObject([{ whatsappId: line.id, sentToday: CONTACTS, pausedReason: null }]);
      const report = (await apiCall('GET', `/campaigns/${campaign.id}/report`, { token: co.token })).body;
      expect(report).toMatchObject({ validContacts: CONTACTS, delivered: CONTACTS, read: readers.size, failed: 0 });
      expect(report.campaign.status).toBe('FINALIZADA');

      // another company sees neither the campaign nor its report
      const other = await newCompany('camp-scale-other');
      expect((await apiCall('GET', `/campaigns/${campaign.id}/report`, { token: other.token })).status).toBe(404);
      expect((await apiCall('GET', '/campaigns', { token: other.token })).body.records).toEqual([]);
      await context.close();
    },
    FINISH_TIMEOUT_MS + 120_000,
  );
});
