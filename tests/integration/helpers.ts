import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject, onTestFinished, vi } from 'vitest';
import { acquireFileLock } from './file-lock';
import WebSocket from 'ws';
import { randomUUID } from 'node:crypto';

export const baseUrl = () => inject('baseUrl');

let alone = false;
/**
 * Declares, at the top of a test file, that the file acts on the whole platform (a timer over every
 * company, platform settings, announcements, data upgrades): it then runs with no other integration
 * file beside it (file-lock.ts). Every other file shares the stack with up to three more.
 */
export function runsAlone() {
  alone = true;
}
/** Whether this file called `runsAlone()` (file-lock-setup.ts). */
export const ranAlone = () => alone;

const timers = new Set<string>();
/** Timers whose lock a test holds now (`holdTimer`): `runTimer` may run them meanwhile. */
const heldTimers = new Set<string>();
/**
 * Declares, at the top of a test file, the timers over every company that the file runs
 * (`runTimer`): no two files that run the same timer run at once (file-lock.ts), so one file's tick
 * never handles another file's due items while that file still means them to wait.
 */
export function usesTimers(...names: string[]) {
  for (const name of names) timers.add(name);
}
/** The timers this file declared (file-lock-setup.ts). */
export const declaredTimers = () => [...timers].sort();
/** Forgets a finished file's declarations: the next file in this worker shares its modules (file-lock-setup.ts). */
export function forgetFileDeclarations() {
  alone = false;
  timers.clear();
}

/**
 * Holds a timer's lock for part of a test instead of the whole file (`usesTimers()`): from just
 * before one of the test's items falls due, while it must wait for the test's own tick, until that
 * tick has handled it. Released by the returned function, or when the test ends whatever happens.
 * For a file that spends most of its time on other things: a file waiting for a lock holds a worker
 * idle meanwhile.
 */
export async function holdTimer(name: string): Promise<() => Promise<void>> {
  const release = await acquireFileLock(inject('fileLockUrl'), 'exclusive', `timer:${name}`);
  let held = true;
  heldTimers.add(name);
  const releaseOnce = async () => {
    if (!held) return;
    held = false;
    heldTimers.delete(name);
    await release();
  };
  onTestFinished(releaseOnce);
  return releaseOnce;
}

/**
 * Points this worker's own config at the stack's table, queues and WebSocket gateway, so a test can
 * call services in-process (to count their requests, or to interrupt one midway) on the stack's data.
 * The worker's module cache is emptied first: a file before this one in the same worker may have
 * loaded functions/lib (whose config keeps the environment it first saw), and this file's own
 * `vi.mock`s apply to what it imports next.
 */
export async function useStackFromWorker() {
  vi.resetModules();
  const { manifest } = await import('../../infra/manifest');
  Object.assign(process.env, {
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    MEDIA_BUCKET: 'inbox-media',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    SQS_ENDPOINT: baseUrl(),
    WS_ENDPOINT: baseUrl(),
    LOG_LEVEL: 'error',
    ...Object.fromEntries(
      manifest.queues.map((q) => [
        `QUEUE_URL_${q.name.toUpperCase().replace(/-/g, '_')}`,
        `${baseUrl()}/@sqs/${q.name}`,
      ]),
    ),
  });
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the API over HTTP as the browser would. */
export async function api<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || typeof opts.body === 'string') body = opts.body as BodyInit;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${baseUrl()}/api${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export const ADMIN = { email: 'admin@admin.com', password: 'admin123' };

export async function login(email: string, password: string) {
  const res = await api('POST', '/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { token: res.body.token as string, user: res.body.user, company: res.body.company, cookie };
}

export interface TestCompany {
  companyId: number;
  adminToken: string;
  admin: { email: string; password: string; id: number };
}

/** A fresh company through public signup (plan 1), logged in as its admin. */
export async function newCompany(label = 'co'): Promise<TestCompany> {
  const email = `${label}-${randomUUID().slice(0, 8)}@test.dev`;
  const password = 'secret123';
  const res = await api('POST', '/companies/cadastro', {
    body: { companyName: `Company ${label}`, name: 'Owner', email, password, phone: '11999998888', planId: 1 },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const session = await login(email, password);
  return { companyId: res.body.company.id, adminToken: session.token, admin: { email, password, id: session.user.id } };
}

/** A WebSocket client that collects every event it receives. */
export async function realtimeClient(token: string) {
  const ticket = (await api('POST', '/auth/ws-ticket', { token })).body.ticket as string;
  const ws = new WebSocket(`${baseUrl().replace('http', 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`);
  const events: { event: string; data: any }[] = [];
  ws.on('message', (raw) => events.push(JSON.parse(raw.toString())));
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
    ws.once('unexpected-response', (_req, res) => fail(new Error(`ws refused ${res.statusCode}`)));
  });
  const send = (action: string, value?: unknown) => ws.send(JSON.stringify({ action, value }));
  /** waits until an event matching the predicate arrives */
  const waitFor = async (match: (e: { event: string; data: any }) => boolean, timeoutMs = 5000) => {
    const started = Date.now();
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      if (Date.now() - started > timeoutMs)
        throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.event))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** sends an action and waits for the server's answer: `ready`, or `error` with its code */
  const reply = async (action: string, value?: unknown) => {
    const before = events.length;
    send(action, value);
    return waitFor(
      (e) => (e.event === 'ready' || e.event === 'error') && e.data.action === action && events.indexOf(e) >= before,
    );
  };
  /** sends a room action and waits for the server's acknowledgement (an `error` answer throws) */
  const join = async (action: string, value?: unknown) => {
    const answer = await reply(action, value);
    if (answer.event === 'error') throw new Error(`${action} refused: ${answer.data.error}`);
  };
  return { ws, events, send, reply, join, waitFor, close: () => ws.close() };
}

/** Waits until the local queues have drained (local runtime only). */
/**
 * Waits until the stack's queues have done what was sent to them. With a company: only that
 * company's work (and work no company owns): other files' traffic beside this one does not hold
 * the wait up (infra/local/queues.ts).
 */
export async function queuesIdle(companyId?: number) {
  await fetch(`${baseUrl()}/@queues/idle${companyId === undefined ? '' : `?companyId=${companyId}`}`);
}

/** Runs a timer of the stack now, over every company; the file must have declared it (`usesTimers`), hold it now (`holdTimer`) or run alone. */
export async function runTimer(name: string) {
  if (!alone && !timers.has(name) && !heldTimers.has(name))
    throw new Error(`runTimer('${name}'): declare it first with usesTimers('${name}'), or hold it (holdTimer)`);
  const res = await fetch(`${baseUrl()}/@timers/${name}`, { method: 'POST' });
  return res.json();
}

/** One health tick on the stack's runners: every connected session probed now (the test stack has no probe loop). */
export async function checkSessionHealth() {
  const res = await fetch(`${baseUrl()}/@runners/health-check`, { method: 'POST' });
  if (!res.ok) throw new Error(`health check: ${res.status}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let doc: DynamoDBDocumentClient | undefined;
/** Direct table access for set-up the API does not offer (an expired company) and for checking stored state. */
export function table() {
  doc ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const TableName = inject('tableName');
  return {
    get: async (pk: string, sk: string) => (await doc!.send(new GetCommand({ TableName, Key: { pk, sk } }))).Item,
    /** every item of a partition (a company's connection records: `C#<id>#WS`) */
    query: async (pk: string) =>
      (
        await doc!.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk },
            ConsistentRead: true,
          }),
        )
      ).Items ?? [],
    set: async (pk: string, sk: string, fields: Record<string, unknown>) => {
      const names = Object.keys(fields);
      await doc!.send(
        new UpdateCommand({
          TableName,
          Key: { pk, sk },
          UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
          ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]])),
        }),
      );
    },
  };
}

export async function outbox(): Promise<{ to: string; subject: string; text: string }[]> {
  return (await fetch(`${baseUrl()}/@mail`)).json();
}
