import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../functions/lib/http';
import { http, type RouteKey } from '../../infra/manifest';
import { ERROR_CODES } from '../../shared/errors';
import { createContact, createQueue } from '../integration/fixtures';
import { ADMIN, api, baseUrl, login, newCompany, type TestCompany } from '../integration/helpers';
import { type Category, hostileProbesFor, type Probe, probesFor } from './probes';

/**
 * Fuzz over the whole route table (infra/manifest.ts, with each module's route schemas): bad inputs
 * derived from every route's zod schemas, and hostile ones aimed at lookups by a caller-given name
 * (built-in property names such as `constructor` and `__proto__` as path parameters, query keys and
 * values, name-like fields; `{"__proto__": ...}` bodies; deeply nested arrays; 1e308, -0, 2^64), are
 * sent over HTTP as the admin of a fresh company (super-user routes as the super user, public routes
 * without a session). No probe may get a 5xx; every 4xx carries a catalogued ERR_* code; and nothing
 * the company can list has changed afterwards. Routes left out are listed below with the reason.
 */

/** Routes not fuzzed, with the reason. Empty: every manifest route is probed. */
const EXCLUDED: Record<string, string> = {};

/** Field probes per route (path-parameter and whole-body probes come on top): keeps the run under a minute. */
const FIELD_PROBES_PER_ROUTE = 16;
const CONCURRENCY = 6;

/** What the company can list: it must read the same before and after the probes. */
const LISTS = [
  '/contacts',
  '/tags',
  '/users',
  '/queue',
  '/quick-messages',
  '/schedules',
  '/whatsapp',
  '/settings',
  '/tickets?status=open&showAll=true',
  '/tickets?status=pending&showAll=true',
  '/tickets?status=closed&showAll=true',
];

interface Outcome {
  probe: Probe;
  route: string;
  status: number;
  error?: unknown;
  /** what a create answered with, to remove it again */
  id?: unknown;
  token?: string;
}

async function routeTable(): Promise<[RouteKey, Route][]> {
  const out: [RouteKey, Route][] = [];
  for (const module of http) {
    const { handler } = (await import(`../../functions/http/${module.name}.ts`)) as {
      handler: { routes: Record<string, Route> };
    };
    for (const key of module.routes) {
      if (EXCLUDED[key]) continue;
      const route = handler.routes[key];
      if (!route) throw new Error(`${key} is in the manifest but not in functions/http/${module.name}.ts`);
      out.push([key, route]);
    }
  }
  return out;
}

async function send(
  method: string,
  probe: Probe,
  token?: string,
): Promise<{ status: number; error?: unknown; id?: unknown }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (probe.contentType) headers['content-type'] = probe.contentType;
  const url = `${baseUrl()}/api${probe.path}${probe.query ? `?${probe.query}` : ''}`;
  const res = await fetch(url, { method, headers, body: probe.body });
  const text = await res.text();
  let body: { error?: unknown; id?: unknown } | undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, error: body?.error, id: body?.id };
}

async function pool<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await run(items[i]!);
      }
    }),
  );
  return results;
}

async function snapshot(co: TestCompany) {
  const out: Record<string, unknown> = {};
  for (const path of LISTS) out[path] = (await api('GET', path, { token: co.adminToken })).body;
  return out;
}

const segmentOf = (path: string) => path.split(/[/?]/)[1]!;

const codeOk = (o: Outcome) => o.status < 400 || ERROR_CODES.includes(o.error as (typeof ERROR_CODES)[number]);

function summary(outcomes: Outcome[]) {
  const rows = new Map<Category, { probes: number; pass: number; '5xx': number; 'no code': number }>();
  for (const o of outcomes) {
    const row = rows.get(o.probe.category) ?? { probes: 0, pass: 0, '5xx': 0, 'no code': 0 };
    row.probes++;
    if (o.status >= 500) row['5xx']++;
    else if (!codeOk(o)) row['no code']++;
    else row.pass++;
    rows.set(o.probe.category, row);
  }
  const total = { probes: 0, pass: 0, '5xx': 0, 'no code': 0 };
  const lines = [...rows.entries()].map(([category, r]): (string | number)[] => {
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += r[k];
    return [category, r.probes, r.pass, r['5xx'], r['no code']];
  });
  lines.push(['TOTAL', total.probes, total.pass, total['5xx'], total['no code']]);
  const head = ['category', 'probes', 'pass', '5xx', 'no code'];
  const width = (i: number) => Math.max(...[head, ...lines].map((l) => String(l[i]).length));
  const fmt = (l: (string | number)[]) =>
    l.map((c, i) => (i ? String(c).padStart(width(i)) : String(c).padEnd(width(i)))).join('  ');
  return [fmt(head), ...lines.map(fmt)].join('\n');
}

describe('fuzz: every route, derived from its schemas', () => {
  let co: TestCompany;
  let superToken: string;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    co = await newCompany('fuzz');
    superToken = (await login(ADMIN.email, ADMIN.password)).token;
    await Promise.all([createContact(co.adminToken), createQueue(co.adminToken)]);
    await api('POST', '/tags', { token: co.adminToken, body: { name: 'fuzz tag', color: '#112233' } });
    before = await snapshot(co);
  });

  it('no input gets a 5xx, every 4xx has a catalogued code, and nothing is stored', async () => {
    const started = Date.now();
    const routes = await routeTable();
    const jobs: { method: string; route: string; probe: Probe; token?: string }[] = [];
    for (const [key, route] of routes) {
      const method = key.split(' ')[0]!;
      // routes that need no session are probed without one, as an attacker would; super-user routes
      // as the super user, so the probes get past the guard to the schemas and the service
      const isPublic = Boolean(route.options.public);
      const token = isPublic ? undefined : route.options.super ? superToken : co.adminToken;
      for (const probe of probesFor(key, route, { fieldProbes: FIELD_PROBES_PER_ROUTE }))
        jobs.push({ method, route: key, probe, token });
      for (const probe of hostileProbesFor(key, route)) jobs.push({ method, route: key, probe, token });
      if (!isPublic) {
        const path = key.split(' ')[1]!.replace(/\{\w+\}/g, '1');
        jobs.push({ method, route: key, probe: { category: 'unauthenticated', path, label: 'no token' } });
      }
    }
    const outcomes = await pool(jobs, CONCURRENCY, async (job): Promise<Outcome> => {
      const { status, error, id } = await send(job.method, job.probe, job.token);
      return { probe: job.probe, route: job.route, status, error, id, token: job.token };
    });
    // What the super user's probes created is seen by every company (helps, plans ...): removed at once.
    const routeKeys = new Set(routes.map(([key]) => key));
    for (const o of outcomes)
      if (o.status === 201 && o.token === superToken && o.id !== undefined && o.route.startsWith('POST ')) {
        const removal = `DELETE ${o.route.slice('POST '.length)}/{id}`;
        if (routeKeys.has(removal as RouteKey))
          expect((await api('DELETE', `${o.probe.path}/${o.id}`, { token: superToken })).status).toBeLessThan(300);
      }

    console.log(
      `fuzz: ${routes.length} routes, ${outcomes.length} probes in ${((Date.now() - started) / 1000).toFixed(1)} s\n${summary(outcomes)}`,
    );
    const describeOutcome = (o: Outcome) =>
      `${o.route} [${o.probe.category}] ${o.probe.label} -> ${o.status} ${String(o.error)}`;
    expect(outcomes.filter((o) => o.status >= 500).map(describeOutcome)).toEqual([]);
    expect(outcomes.filter((o) => !codeOk(o)).map(describeOutcome)).toEqual([]);
    const unauthenticated = outcomes.filter((o) => o.probe.category === 'unauthenticated');
    expect(unauthenticated.filter((o) => o.status !== 401).map(describeOutcome)).toEqual([]);
    // A probe can be valid input (a quick message needs only its shortcode, so `{"shortcode":"NaN"}`
    // creates one): such writes are listed; every list no accepted write touched must be unchanged.
    const accepted = outcomes.filter((o) => o.status < 300 && !o.route.startsWith('GET '));
    if (accepted.length) console.log(`accepted writes (valid input):\n${accepted.map(describeOutcome).join('\n')}`);
    const touched = new Set(accepted.map((o) => segmentOf(o.route.split(' ')[1]!)));
    const after = await snapshot(co);
    const untouched = (snap: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(snap).filter(([path]) => !touched.has(segmentOf(path))));
    expect(untouched(after)).toEqual(untouched(before));
  }, 180_000);
});
