import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startStack } from '../../infra/local/stack';
import type { SessionRecord } from '../../session-runner/src/providers/simulator';
import { type CutProxy, startCutProxy } from './dynamo-cut';
import {
  conversation,
  fleetStackOptions,
  pairSessions,
  type PairedFleet,
  ticketsByNumber,
  waitFor,
} from './fleet-setup';

/**
 * Issue 37, item 1 (R1 of whatsapp-review-3): only the holder writes a session's credentials and
 * keys. Runner A reaches DynamoDB through a proxy the test cuts (tests/fault/dynamo-cut.ts) for
 * longer than A's lease, while A has a key write on its way: B takes the session over and messages
 * are exchanged on B; then the cut heals and what A sent meanwhile reaches the table late. Every
 * message received advances the chat's session record (SIMULATOR_SIGNAL_KEYS), as decrypting does
 * with Baileys, and each record names the runner that wrote it.
 */

/** A lease of 6 s, heartbeats every half second: the cut outlasts it by seconds, and stays well under a minute. */
const HEARTBEAT_TTL_MS = 6_000;
const FLEET_ENV = {
  FLEET_HEARTBEAT_MS: '500',
  FLEET_HEARTBEAT_TTL_MS: String(HEARTBEAT_TTL_MS),
  FLEET_REBALANCE_MS: '500',
  SIMULATOR_SIGNAL_KEYS: '1',
};
const CUSTOMER = '5511977770001';

let proxy: CutProxy;
let stack: LocalStack;
let fleet: PairedFleet;

beforeAll(async () => {
  // the stack sets DYNAMODB_ENDPOINT before it starts the first runner
  proxy = await startCutProxy(() => process.env.DYNAMODB_ENDPOINT!);
  stack = await startStack({
    ...fleetStackOptions(1),
    // runner A (the first) through the proxy, with a request timeout short enough to end inside the cut
    runnerEnv: (index) =>
      index === 0
        ? { ...FLEET_ENV, DYNAMODB_ENDPOINT: proxy.endpoint, DYNAMODB_REQUEST_TIMEOUT_MS: '1500' }
        : FLEET_ENV,
  });
  fleet = await pairSessions(stack, 1);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await proxy?.close();
});

describe('R1: only the holder writes', () => {
  it('a runner cut off from DynamoDB past its lease lands no write over the runner that took its session; messages after the heal decrypt on the new holder', async () => {
    const { call, token, companyId } = fleet;
    const whatsappId = fleet.connections[0]!;
    const hub = stack.simulator!;
    const [a] = stack.runners;
    const b = await stack.addRunner();
    const { queryAll } = await import('#lib/db');
    const { readSession } = await import('#lib/fleet/ownership');
    const authItems = async () =>
      new Map(
        (await queryAll<{ sk: string; data?: string }>({ pk: `C#${companyId}#WAUTH#${whatsappId}` })).map((i) => [
          i.sk,
          i.data,
        ]),
      );
    const sessionRecord = async () => {
      const data = (await authItems()).get(`KEY#session#${CUSTOMER}@s.whatsapp.net`);
      return data ? (JSON.parse(data) as SessionRecord) : undefined;
    };
    const phone = () => hub.snapshot(companyId, whatsappId) as { runner?: string; outbound: { wid: string }[] };
    let sent = 0;
    const customerWrites = async () => {
      const wid = `R1IN${String(++sent).padStart(4, '0')}`;
      await call('POST', `/@simulator/sessions/${companyId}/${whatsappId}/messages`, {
        from: CUSTOMER,
        wid,
        body: `hello ${sent}`,
        queue: true,
      });
      return wid;
    };
    let ticketId: number | undefined;
    const stored = (wid: string) =>
      waitFor(`${wid} stored in the ticket`, async () => {
        ticketId ??= (await ticketsByNumber(call, token)).get(CUSTOMER);
        return ticketId !== undefined && (await conversation(call, token, ticketId)).some((m) => m.wid === wid);
      });
    const weReply = async (body: string) => {
      const { wid } = await call<{ wid: string }>('POST', `/api/messages/${ticketId}`, { body }, token);
      await waitFor(`${body} on the customer's phone`, () => phone().outbound.some((o) => o.wid === wid));
    };

    // ---- on A: a message in, a reply out; one session on two runners stays where it is
    await stored(await customerWrites());
    await weReply('reply 1');
    expect((await readSession(companyId, whatsappId))?.owner).toBe(a!.id);
    expect(await sessionRecord()).toEqual({ n: 1, by: a!.id });
    const before = await authItems();

    // ---- cut A off DynamoDB; the customer writes at once: A takes the message and its key write hangs
    proxy.cut();
    const cutAt = Date.now();
    const duringCut = await customerWrites();
    // B takes the session once A's lease has run out; the message A never stored arrives on B
    await waitFor(
      'B holds the session',
      async () => (await readSession(companyId, whatsappId))?.owner === b.id,
      60_000,
    );
    await stored(duringCut);
    expect(phone().runner).toBe(b.id);
    await stored(await customerWrites());
    await weReply('reply 2');
    const cutMs = Date.now() - cutAt;
    expect(cutMs).toBeGreaterThan(HEARTBEAT_TTL_MS);

    // ---- heal: what A sent during the cut reaches the table now
    proxy.heal();
    await waitFor('every late request answered', () => proxy.late().every((r) => r.status !== undefined), 30_000);
    // counted at the table: every auth item changed since the cut was written by B
    const after = await authItems();
    const changed = [...after].filter(([sk, data]) => before.get(sk) !== data);
    const staleLanded = changed.filter(([, data]) => (JSON.parse(data ?? '{}') as Partial<SessionRecord>).by !== b.id);
    expect(staleLanded).toEqual([]);
    expect(await sessionRecord()).toEqual({ n: 3, by: b.id });
    // and on the wire: A did try to write the session's keys, those writes did reach the table late ...
    const late = proxy.late();
    const lateAuthWrites = late.filter((r) => r.authWrite);
    // more than one: each attempt was ended by the request timeout and tried again (a call that
    // never ended would have sent one, and held A's key writes for as long as the cut lasted)
    expect(lateAuthWrites.length).toBeGreaterThan(1);
    // ... and the holder check refused every one of them
    const landed = lateAuthWrites.filter((r) => r.status === 200);
    expect(landed).toEqual([]);
    expect(lateAuthWrites.every((r) => r.error === 'TransactionCanceledException')).toBe(true);
    // A closed the session and its store when its lease ran out, and holds nothing now
    const aHealth = await a!.health();
    expect(aHealth?.sessions).toBe(0);

    // ---- after the heal: messages still decrypt on B, replies still reach the customer
    await stored(await customerWrites());
    await weReply('reply 3');
    expect(await sessionRecord()).toEqual({ n: 4, by: b.id });
    expect(phone().runner).toBe(b.id);
    expect((await readSession(companyId, whatsappId))?.owner).toBe(b.id);
    console.log(
      `cut ${(cutMs / 1000).toFixed(1)} s (lease ${HEARTBEAT_TTL_MS / 1000} s); requests held and delivered late ${late.length}, ` +
        `of them auth writes ${lateAuthWrites.length}, landed ${landed.length}; auth items changed since the cut ${changed.length}, ` +
        `by the old holder ${staleLanded.length}; A's stale writes refused (counter) ${aHealth?.counters?.staleWritesRefused}`,
    );
  }, 300_000);
});
