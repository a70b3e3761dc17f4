import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { BufferJSON, proto } from '@whiskeysockets/baileys';
import { startTestTable, type LocalDynamo } from '../../../../infra/local/dynamo';
import { resetConfig } from '#lib/config';
import { deleteItem, resetDb, queryAll } from '#lib/db';
import { AuthStore, SessionNotHeld } from '../../auth-store';
import { loadDynamoAuthState } from './auth-state';

let dynamo: LocalDynamo & { tableName: string };

beforeAll(async () => {
  dynamo = await startTestTable('auth-test');
  Object.assign(process.env, {
    TABLE_NAME: dynamo.tableName,
    MEDIA_BUCKET: 'unused',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    LOG_LEVEL: 'error',
  });
  resetConfig();
  resetDb();
}, 60_000);

afterAll(async () => {
  await dynamo?.stop();
});

const bytes = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256));

describe('Baileys auth state in DynamoDB', () => {
  it('creds and every key type (incl. lid-mapping, device-list, tctoken) survive a restart, one item per key', async () => {
    const first = await loadDynamoAuthState(new AuthStore(7, 3));
    first.state.creds.me = { id: '5511999990000:4@s.whatsapp.net', name: 'Shop' };
    await first.saveCreds();
    const keys = {
      'pre-key': { '1': { public: bytes(32, 1), private: bytes(32, 2) } },
      session: { '5511888@s.whatsapp.net.0': bytes(64, 3) },
      'sender-key': { 'group@g.us::5511::0': bytes(48, 4) },
      'sender-key-memory': { 'group@g.us': { '5511@s.whatsapp.net': true } },
      'app-state-sync-key': {
        AAAA: proto.Message.AppStateSyncKeyData.fromObject({ keyData: bytes(32, 5), timestamp: 1700000000 }),
      },
      'app-state-sync-version': { regular: { version: 3, hash: bytes(128, 6), indexValueMap: {} } },
      'lid-mapping': { '5511888': '123456789@lid', '123456789_reverse': '5511888' },
      'device-list': { '5511888': ['0', '12'] },
      tctoken: { '5511888@s.whatsapp.net': { token: bytes(16, 7), timestamp: '1700000001' } },
      'identity-key': { '5511888.0': bytes(33, 8) },
    };
    // keys.set resolves only once DynamoDB has them
    await first.state.keys.set(keys as any);

    // a fresh process: nothing cached
    const restarted = await loadDynamoAuthState(new AuthStore(7, 3));
    expect(restarted.state.creds.me?.id).toBe('5511999990000:4@s.whatsapp.net');
    expect(Buffer.from(restarted.state.creds.noiseKey.private)).toEqual(
      Buffer.from(first.state.creds.noiseKey.private),
    );
    for (const [type, entries] of Object.entries(keys)) {
      const got = await restarted.state.keys.get(type as any, Object.keys(entries));
      expect(JSON.stringify(got, BufferJSON.replacer), type).toBe(JSON.stringify(entries, BufferJSON.replacer));
    }
    const appKey = (await restarted.state.keys.get('app-state-sync-key', ['AAAA'])).AAAA!;
    expect(appKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    const items = await queryAll({ pk: 'C#7#WAUTH#3' });
    // creds + one item per key
    expect(items.length).toBe(1 + Object.values(keys).reduce((n, e) => n + Object.keys(e).length, 0));
  });

  it('a null value deletes the key; clear() (logout) removes every item of the session', async () => {
    const store = new AuthStore(7, 4);
    const auth = await loadDynamoAuthState(store);
    await auth.saveCreds();
    await auth.state.keys.set({ session: { a: bytes(8, 1), b: bytes(8, 2) } });
    await auth.state.keys.set({ session: { a: null } });
    const fresh = await loadDynamoAuthState(new AuthStore(7, 4));
    expect(Object.keys(await fresh.state.keys.get('session', ['a', 'b']))).toEqual(['b']);
    await store.clear();
    expect(await queryAll({ pk: 'C#7#WAUTH#4' })).toEqual([]);
    const afterLogout = await loadDynamoAuthState(new AuthStore(7, 4));
    expect(afterLogout.state.creds.me).toBeUndefined();
    // fresh credentials: pairing starts over with a new identity
    expect(Buffer.from(afterLogout.state.creds.noiseKey.private)).not.toEqual(
      Buffer.from(auth.state.creds.noiseKey.private),
    );
  });

  it("an app-state hash over DynamoDB's 400 KB item limit is stored in parts, read back whole, and its parts go when it shrinks", async () => {
    const indexValueMap: Record<string, { valueMac: Buffer }> = {};
    for (let i = 0; i < 6000; i++) indexValueMap[bytes(32, i).toString('base64') + i] = { valueMac: bytes(32, i + 1) };
    const big = { regular: { version: 9, hash: bytes(128, 6), indexValueMap } };
    const auth = await loadDynamoAuthState(new AuthStore(7, 5));
    await auth.state.keys.set({ 'app-state-sync-version': big } as never);
    const fresh = await loadDynamoAuthState(new AuthStore(7, 5));
    const got = await fresh.state.keys.get('app-state-sync-version', ['regular']);
    expect(JSON.stringify(got.regular, BufferJSON.replacer)).toBe(JSON.stringify(big.regular, BufferJSON.replacer));
    // shrinks back under the limit: one inline item, no parts left behind
    await fresh.state.keys.set({
      'app-state-sync-version': { regular: { version: 10, hash: bytes(128, 7), indexValueMap: {} } },
    } as never);
    const items = await queryAll<{ sk: string }>({ pk: 'C#7#WAUTH#5' });
    expect(items.map((i) => i.sk)).toEqual(['KEY#app-state-sync-version#regular']);
  });

  it('the cache survives a reconnect: creds written at pairing are read back by the 515 restart without a stale read', async () => {
    const store = new AuthStore(7, 6);
    const pairing = await loadDynamoAuthState(store);
    pairing.state.creds.me = { id: '5511999990006:2@s.whatsapp.net' };
    await pairing.saveCreds();
    // what an eventually consistent read right after the write could see: nothing yet
    await deleteItem({ pk: 'C#7#WAUTH#6', sk: 'creds' });
    const restarted = await loadDynamoAuthState(store);
    expect(restarted.state.creds.me?.id).toBe('5511999990006:2@s.whatsapp.net');
  });

  it('address-book fields are set one name at a time without touching the others, listed by type, and go at logout', async () => {
    const store = new AuthStore(7, 7);
    await store.setFields('contact-name', new Map([['5511955550001', { saved: 'Ana' }]]));
    await store.setFields(
      'contact-name',
      new Map([
        ['5511955550001', { push: 'ana.k' }],
        ['5511955550002', { push: 'Bia' }],
      ]),
    );
    await store.setKeys({ session: { a: bytes(8, 1) } });
    expect(await store.fieldsOf('contact-name')).toEqual(
      new Map([
        ['5511955550001', { saved: 'Ana', push: 'ana.k' }],
        ['5511955550002', { push: 'Bia' }],
      ]),
    );
    await store.clear();
    expect(await queryAll({ pk: 'C#7#WAUTH#7' })).toEqual([]);
  });
});

describe('only the holder writes (whatsapp-review-3 R1)', () => {
  it('a runner whose session was taken over lands no creds or keys over the new holder’s; its store closes and tries nothing again', async () => {
    const { markWanted, moveSession, readSession } = await import('#lib/fleet/ownership');
    const [companyId, whatsappId] = [8, 1];
    await markWanted(companyId, whatsappId);
    const epochA = await moveSession((await readSession(companyId, whatsappId))!, 'runner-a');
    let lost = 0;
    const a = new AuthStore(companyId, whatsappId).guard({ runnerId: 'runner-a', epoch: epochA! });
    a.onLost = () => lost++;
    await a.setKeys({ session: { alice: { from: 'a' } } });
    await a.writeCreds({ me: 'a-1' });

    // runner A is cut off past its lease; runner B takes the session and writes its own state
    const epochB = await moveSession((await readSession(companyId, whatsappId))!, 'runner-b');
    expect(epochB).toBe(epochA! + 1);
    const b = new AuthStore(companyId, whatsappId).guard({ runnerId: 'runner-b', epoch: epochB! });
    await b.setKeys({ session: { alice: { from: 'b' } } });
    await b.writeCreds({ me: 'b-1' });

    // A comes back with writes in flight: a key batch (also one too big for one transaction) and creds
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, { from: 'a' }]));
    await expect(a.setKeys({ session: { alice: { from: 'a-late' } } })).rejects.toThrow(SessionNotHeld);
    expect(a.isClosed).toBe(true);
    expect(lost).toBe(1);
    await a.writeCreds({ me: 'a-2' });
    await expect(a.setKeys({ 'pre-key': many })).rejects.toThrow(SessionNotHeld);
    expect(a.refused).toBe(1);
    expect(lost).toBe(1);

    // counted at the table: nothing of A's after the takeover
    const fresh = new AuthStore(companyId, whatsappId);
    expect(await fresh.readCreds()).toEqual({ me: 'b-1' });
    expect(await fresh.getKeys('session', ['alice'])).toEqual({ alice: { from: 'b' } });
    const stored = await queryAll<{ sk: string }>({ pk: fresh.pk, projection: ['sk'] });
    expect(stored.filter((i) => i.sk.startsWith('KEY#pre-key#'))).toEqual([]);

    // the holder goes on writing, in transactions of at most 100 items however large the set
    await b.setKeys({ 'pre-key': many });
    expect(Object.keys(await new AuthStore(companyId, whatsappId).getKeys('pre-key', Object.keys(many)))).toHaveLength(
      150,
    );
  });

  it('address-book fields and a clear (logout, new QR code) of a runner whose session was taken over are refused too', async () => {
    const { markWanted, moveSession, readSession } = await import('#lib/fleet/ownership');
    const [companyId, whatsappId] = [8, 2];
    await markWanted(companyId, whatsappId);
    const epochA = await moveSession((await readSession(companyId, whatsappId))!, 'runner-a');
    const a = new AuthStore(companyId, whatsappId).guard({ runnerId: 'runner-a', epoch: epochA! });
    await a.setKeys({ session: { alice: { from: 'a' } } });
    await moveSession((await readSession(companyId, whatsappId))!, 'runner-b');

    await expect(a.setFields('contact-name', new Map([['5511955550001', { saved: 'Ana' }]]))).rejects.toThrow(
      SessionNotHeld,
    );
    expect(a.isClosed).toBe(true);
    const clearing = new AuthStore(companyId, whatsappId).guard({ runnerId: 'runner-a', epoch: epochA! });
    await expect(clearing.clear()).rejects.toThrow(SessionNotHeld);

    const fresh = new AuthStore(companyId, whatsappId);
    expect(await fresh.getKeys('session', ['alice'])).toEqual({ alice: { from: 'a' } });
    expect(await fresh.fieldsOf('contact-name')).toEqual(new Map());
  });

  it('a write in flight when its store closed (a fence) and refused by the table is counted as a stale write refused', async () => {
    const { markWanted, moveSession, readSession } = await import('#lib/fleet/ownership');
    const { runnerCounters } = await import('../../counters');
    const [companyId, whatsappId] = [8, 3];
    await markWanted(companyId, whatsappId);
    const epochA = await moveSession((await readSession(companyId, whatsappId))!, 'runner-a');
    const a = new AuthStore(companyId, whatsappId).guard({ runnerId: 'runner-a', epoch: epochA! });
    await moveSession((await readSession(companyId, whatsappId))!, 'runner-b');
    const counted = runnerCounters.staleWritesRefused;
    const writing = a.setKeys({ session: { alice: { from: 'a' } } });
    // past the store's own check, on its way to the table
    await new Promise((r) => setImmediate(r));
    a.close();
    await expect(writing).rejects.toThrow(SessionNotHeld);
    expect(a.refused).toBe(1);
    expect(runnerCounters.staleWritesRefused).toBe(counted + 1);
  });

  it('a store closed when its session left the runner (drop, release) writes nothing more, and its creds stop being retried', async () => {
    const store = new AuthStore(9, 1);
    await store.writeCreds({ me: 'first' });
    store.close();
    await store.writeCreds({ me: 'after close' });
    await expect(store.setKeys({ session: { bob: { v: 1 } } })).rejects.toThrow(SessionNotHeld);
    const fresh = new AuthStore(9, 1);
    expect(await fresh.readCreds()).toEqual({ me: 'first' });
    expect(await fresh.getKeys('session', ['bob'])).toEqual({});
  });
});
