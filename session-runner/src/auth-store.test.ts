import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The table in memory, the calls the store makes, and switches to hold or fail writes and reads. */
const db = vi.hoisted(() => {
  type Row = Record<string, unknown> & { pk: string; sk: string };
  const state = {
    rows: new Map<string, Row>(),
    batchGets: [] as string[][],
    getItems: 0,
    transactions: [] as number[],
    credsWritten: [] as string[],
    failWrites: 0,
    writeGate: undefined as Promise<void> | undefined,
    readGate: undefined as Promise<void> | undefined,
  };
  const id = (k: { pk: string; sk: string }) => `${k.pk}|${k.sk}`;
  const write = async (puts: Row[], deletes: { pk: string; sk: string }[]) => {
    await state.writeGate;
    if (state.failWrites > 0) {
      state.failWrites--;
      throw new Error('ProvisionedThroughputExceededException');
    }
    for (const p of puts) {
      state.rows.set(id(p), structuredClone(p));
      if (p.sk === 'creds') state.credsWritten.push(String(p.data));
    }
    for (const d of deletes) state.rows.delete(id(d));
  };
  return { state, id, write };
});

vi.mock('#lib/db', () => ({
  getItem: async (key: { pk: string; sk: string }) => {
    db.state.getItems++;
    return structuredClone(db.state.rows.get(db.id(key)));
  },
  batchGet: async (keys: { pk: string; sk: string }[]) => {
    db.state.batchGets.push(keys.map((k) => k.sk));
    const found = keys.flatMap((k) =>
      db.state.rows.has(db.id(k)) ? [structuredClone(db.state.rows.get(db.id(k))!)] : [],
    );
    await db.state.readGate;
    return found;
  },
  batchWrite: db.write,
  transact: async (items: ({ Put: { Item: never } } | { Delete: { Key: never } })[]) => {
    db.state.transactions.push(items.length);
    await db.write(
      items.flatMap((i) => ('Put' in i ? [i.Put.Item] : [])),
      items.flatMap((i) => ('Delete' in i ? [i.Delete.Key] : [])),
    );
  },
  putTx: (Item: unknown) => ({ Put: { Item } }),
  deleteTx: (Key: unknown) => ({ Delete: { Key } }),
  deleteItem: async (key: { pk: string; sk: string }) => void db.state.rows.delete(db.id(key)),
  queryAll: async ({ pk }: { pk: string }) => [...db.state.rows.values()].filter((r) => r.pk === pk),
  updateItem: async () => undefined,
}));
Object.assign(process.env, {
  TABLE_NAME: 'unused',
  MEDIA_BUCKET: 'unused',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'error',
});
const { AuthStore, KEY_CACHE_MAX, KEY_WRITE_ATTEMPTS } = await import('./auth-store');

const held = () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { gate, release };
};
const sessionKeys = (from: number, count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${from + i}`, { n: from + i }]));

beforeEach(() => {
  Object.assign(db.state, {
    rows: new Map(),
    batchGets: [],
    getItems: 0,
    transactions: [],
    credsWritten: [],
    failWrites: 0,
    writeGate: undefined,
    readGate: undefined,
  });
});
afterEach(() => vi.useRealTimers());

describe('AuthStore memory (N5)', () => {
  it('creds stay pinned and signal keys are bounded: the least recently used key is evicted and read back from the table as written', async () => {
    const store = new AuthStore(1, 2);
    await store.writeCreds({ me: 'x' });
    await store.setKeys({ session: sessionKeys(0, KEY_CACHE_MAX + 10) });
    db.state.batchGets = [];
    expect(await store.getKeys('session', [`k${KEY_CACHE_MAX + 9}`])).toEqual({
      [`k${KEY_CACHE_MAX + 9}`]: { n: KEY_CACHE_MAX + 9 },
    });
    expect(db.state.batchGets).toEqual([]);
    expect(await store.getKeys('session', ['k0'])).toEqual({ k0: { n: 0 } });
    expect(db.state.batchGets).toEqual([['KEY#session#k0']]);
    expect(await store.readCreds()).toEqual({ me: 'x' });
    expect(db.state.getItems).toBe(0);
  });

  it('a key evicted before its write landed is read back as written, never as missing', async () => {
    const store = new AuthStore(1, 2);
    const { gate, release } = held();
    db.state.writeGate = gate;
    const first = store.setKeys({ session: { early: { n: 'early' } } });
    const more = store.setKeys({ session: sessionKeys(0, KEY_CACHE_MAX) });
    const read = store.getKeys('session', ['early']);
    release();
    await Promise.all([first, more]);
    expect(await read).toEqual({ early: { n: 'early' } });
  });

  it('a read that overlapped a write of the same key does not keep the older value', async () => {
    const store = new AuthStore(1, 2);
    await store.setKeys({ session: { a: { v: 1 } } });
    const fresh = new AuthStore(1, 2);
    const { gate, release } = held();
    db.state.readGate = gate;
    const read = fresh.getKeys('session', ['a']);
    await vi.waitFor(() => expect(db.state.batchGets).toHaveLength(1));
    await fresh.setKeys({ session: { a: { v: 2 } } });
    release();
    await read;
    db.state.readGate = undefined;
    expect(await fresh.getKeys('session', ['a'])).toEqual({ a: { v: 2 } });
  });
});

describe('AuthStore writes (N12)', () => {
  it('saving creds is retried until the latest creds are stored: a newer save supersedes one still waiting, and flush() waits for it', async () => {
    vi.useFakeTimers();
    const store = new AuthStore(1, 2);
    db.state.failWrites = 2;
    const saved: number[] = [];
    void store.writeCreds({ v: 1 }).then(() => saved.push(1));
    void store.writeCreds({ v: 2 }).then(() => saved.push(2));
    let flushed = false;
    void store.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(flushed).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(flushed).toBe(true);
    expect(saved).toEqual([1, 2]);
    expect(db.state.credsWritten).toEqual(['{"v":2}']);
  });

  it('creds still waiting when the session logs out (clear) are not written back', async () => {
    vi.useFakeTimers();
    const store = new AuthStore(1, 2);
    db.state.failWrites = 1;
    const save = store.writeCreds({ v: 1 });
    await vi.advanceTimersByTimeAsync(1);
    await store.clear();
    await vi.advanceTimersByTimeAsync(5_000);
    await save;
    expect(db.state.credsWritten).toEqual([]);
    expect(db.state.rows.size).toBe(0);
  });

  it('the keys of one set are written in one transaction, tried again when it fails; a set that keeps failing rejects and is not served from memory', async () => {
    vi.useFakeTimers();
    const store = new AuthStore(1, 2);
    await store.setKeys({ session: { a: { v: 1 }, b: { v: 1 } }, 'pre-key': { '1': null } });
    expect(db.state.transactions).toEqual([3]);

    db.state.failWrites = 1;
    const retried = store.setKeys({ session: { a: { v: 2 }, b: { v: 2 } } });
    await vi.advanceTimersByTimeAsync(5_000);
    await retried;
    expect(db.state.transactions).toEqual([3, 2, 2]);
    expect(db.state.rows.get('C#1#WAUTH#2|KEY#session#a')?.data).toBe('{"v":2}');

    db.state.failWrites = KEY_WRITE_ATTEMPTS;
    const failing = store.setKeys({ session: { a: { v: 3 }, b: { v: 3 } } });
    const outcome = failing.then(
      () => 'stored',
      () => 'failed',
    );
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await outcome).toBe('failed');
    expect(await store.getKeys('session', ['a'])).toEqual({ a: { v: 2 } });
  });
});
