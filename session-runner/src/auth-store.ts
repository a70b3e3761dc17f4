import { gunzipSync, gzipSync } from 'node:zlib';
import {
  batchGet,
  batchWrite,
  deleteItem,
  deleteTx,
  getItem,
  putTx,
  queryAll,
  transact,
  updateItem,
  updateTx,
  type Item,
  type Key,
  type TransactItem,
} from '#lib/db';
import { AppError } from '#lib/errors';
import { type Holder, stillHeldTx } from '#lib/fleet/ownership';
import { log } from '#lib/log';
import { backoff } from './close-policy';
import { Lru } from './lru';
import { runnerCounters } from './counters';

export interface Codec {
  encode(value: unknown): string;
  decode(text: string): unknown;
}
const JSON_CODEC: Codec = { encode: (v) => JSON.stringify(v), decode: (t) => JSON.parse(t) };

/** Values longer than this are gzipped and split over part items (DynamoDB items stop at 400 KB). */
export const INLINE_LIMIT = 300_000;

/** Signal keys kept in memory per session (a session record is a few KB); the rest is read again when needed. */
export const KEY_CACHE_MAX = 500;
/** Part counts of split values kept per session: only app-state hashes of large accounts get split. */
const PARTS_CACHE_MAX = 64;
/** A TransactWriteItems call holds at most 100 items and 4 MB. */
const TRANSACT_MAX_ITEMS = 100;
const TRANSACT_MAX_BYTES = 3_500_000;
/** Attempts at one batch of keys before `keys.set` fails (Baileys is waiting for it). */
export const KEY_WRITE_ATTEMPTS = 5;
const RETRY_BASE_MS = 100;
const KEY_RETRY_CAP_MS = 2_000;
const CREDS_RETRY_CAP_MS = 30_000;
/** Address-book entries written at once. */
const FIELD_WRITE_CONCURRENCY = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A write refused because the runner no longer holds the session (its holder check failed), or
 * asked of a store already closed: never tried again.
 */
export class SessionNotHeld extends AppError {
  constructor() {
    super('ERR_CONFLICT', 409, { reason: 'session not held' });
  }
}

/** A stored key: inline text, or the number of gzipped parts under `<sk>#part#<n>`. */
interface KeyItem {
  sk: string;
  data?: string;
  parts?: number;
}
interface PartItem {
  sk: string;
  bin: Uint8Array;
}

/**
 * A session's credentials and signal keys in DynamoDB, one item per key, never on disk:
 * pk `C#<cid>#WAUTH#<wid>`, sk `creds` or `KEY#<type>#<id>` (large values, like the app-state
 * hash of an account with thousands of chats, gzipped over `KEY#<type>#<id>#part#<n>` items).
 * Reads go through an in-memory cache kept for the life of the session (reconnects included):
 * the creds pinned, the signal keys bounded (least recently used go; an evicted key is read again).
 * Reads are strongly consistent after the store's own pending writes: creds written at pairing must
 * be read back right after the 515 restart, or the phone sees a new QR code, and a key evicted
 * before its write landed must be read back as written. Writes are awaited (a key the provider was
 * told is stored must survive a crash, or messages stop decrypting), each set in one transaction
 * where DynamoDB allows, tried again a few times, and run one at a time so a set and a delete of one
 * key never land out of order. Creds are written until stored, the latest value superseding one
 * still waiting; `flush()` waits for all of it (shutdown).
 */
export class AuthStore {
  /** read at every connect, written at every creds.update: never evicted */
  private creds?: { value: unknown };
  private keys = new Lru<unknown>({ max: KEY_CACHE_MAX });
  /** part counts of the split values this store has seen, so a shrunk or deleted value leaves no parts behind */
  private partsOf = new Lru<number>({ max: PARTS_CACHE_MAX });
  private writes: Promise<unknown> = Promise.resolve();
  /** counts key writes: a read that overlapped one does not cache what it found */
  private changes = 0;
  /** creds values handed in, and the newest of them stored */
  private credsVersion = 0;
  private credsStored = 0;
  private credsWriter?: Promise<void>;
  /** counts clear()s: an address-book write started before one is dropped */
  private generation = 0;
  /** every write holds only while this runner holds the session with this epoch (`guard`) */
  private holder?: Holder;
  /** closed: the session left this runner; nothing more is written, nothing retried */
  private closed = false;
  /** writes refused because the session had changed hands */
  refused = 0;
  /** told once when a write finds the session held elsewhere (the session then closes) */
  onLost?: () => void;
  readonly pk: string;

  constructor(
    readonly companyId: number,
    readonly whatsappId: number,
    private codec: Codec = JSON_CODEC,
  ) {
    this.pk = `C#${companyId}#WAUTH#${whatsappId}`;
  }

  /**
   * From now on every write is one transaction with a check that `holder` still holds the session
   * (R1 of whatsapp-review-3): a runner cut off from DynamoDB past its lease, whose session another
   * runner took meanwhile, cannot land old creds or keys over the new holder's when it comes back.
   */
  guard(holder: Holder) {
    this.holder = holder;
    return this;
  }

  /** The holder and epoch every write is checked against (`guard`), if any. */
  get heldAs(): Holder | undefined {
    return this.holder;
  }

  /** The session left this runner: pending creds stop being retried and later writes are refused. */
  close() {
    this.closed = true;
  }

  get isClosed() {
    return this.closed;
  }

  /**
   * Writes `items` in transactions of at most TRANSACT_MAX_ITEMS (with the holder check when the
   * store is guarded). A refused holder check closes the store and throws SessionNotHeld.
   */
  private async writeGuarded(items: TransactItem[], bytes: (item: TransactItem) => number) {
    if (this.closed) throw new SessionNotHeld();
    const holder = this.holder!;
    const check = stillHeldTx(this.companyId, this.whatsappId, holder);
    let chunk: TransactItem[] = [];
    let size = 0;
    const flush = async () => {
      if (!chunk.length) return;
      const items = chunk;
      chunk = [];
      size = 0;
      await transact([check, ...items], (index) => (index === 0 ? new SessionNotHeld() : new AppError('ERR_CONFLICT')));
    };
    try {
      for (const item of items) {
        const n = bytes(item);
        if (chunk.length + 1 >= TRANSACT_MAX_ITEMS || size + n > TRANSACT_MAX_BYTES) await flush();
        chunk.push(item);
        size += n;
      }
      await flush();
    } catch (err) {
      if (err instanceof SessionNotHeld) this.lose();
      throw err;
    }
  }

  /** The table refused a write: counted even when the store had closed meanwhile (a write in flight at a fence). */
  private lose() {
    this.refused++;
    runnerCounters.staleWritesRefused++;
    if (this.closed) return;
    this.closed = true;
    log.warn('session held by another runner: its auth writes stop here', {
      companyId: this.companyId,
      whatsappId: this.whatsappId,
      epoch: this.holder?.epoch,
    });
    this.onLost?.();
  }

  /** Puts and deletes, guarded when the store is; else in one transaction when `atomic`, or batches. */
  private async writeItems(puts: Item[], deletes: Key[], atomic: boolean) {
    if (this.closed) throw new SessionNotHeld();
    if (this.holder)
      return this.writeGuarded([...puts.map((item) => putTx(item)), ...deletes.map((key) => deleteTx(key))], itemBytes);
    if (atomic) await transact([...puts.map((item) => putTx(item)), ...deletes.map((key) => deleteTx(key))]);
    else await batchWrite(puts, deletes);
  }

  withCodec(codec: Codec) {
    // cached values were decoded with the old codec (creds waiting to be written are kept)
    if (codec !== this.codec) {
      this.keys.flushAll();
      if (!this.credsWriter) this.creds = undefined;
    }
    this.codec = codec;
    return this;
  }

  private static keySk = (type: string, id: string) => `KEY#${type}#${id}`;
  private static partSk = (sk: string, n: number) => `${sk}#part#${n}`;

  async readCreds<T>(): Promise<T | undefined> {
    if (!this.creds) {
      await this.writes;
      const item = await getItem<KeyItem>({ pk: this.pk, sk: 'creds' }, { consistent: true });
      const value = item ? await this.decodeItem(item) : null;
      // creds written while the read was on its way are newer
      this.creds ??= { value };
    }
    return (this.creds.value ?? undefined) as T | undefined;
  }

  /**
   * Stores the creds, trying again with back-off until DynamoDB has them; a value handed in while
   * an older one waits supersedes it (the value is encoded when its write starts). Resolves once
   * this value, or a newer one, is stored.
   */
  writeCreds(value: unknown): Promise<void> {
    this.creds = { value };
    this.credsVersion++;
    this.credsWriter ??= this.storeLatestCreds();
    return this.credsWriter;
  }

  private async storeLatestCreds() {
    // entered with a version not yet stored, so this awaits before it ends: `credsWriter` is set by then
    for (let attempt = 0; this.credsStored < this.credsVersion && !this.closed; ) {
      try {
        await this.serial(async () => {
          const version = this.credsVersion;
          if (this.creds) {
            const { puts, deletes } = this.encodeItems('creds', this.creds.value);
            await this.writeItems(puts, deletes, false);
          }
          this.credsStored = Math.max(this.credsStored, version);
        });
        attempt = 0;
      } catch (err) {
        // the session left this runner: its creds are no longer ours to write
        if (err instanceof SessionNotHeld) break;
        log.warn('saving creds failed, retrying', {
          companyId: this.companyId,
          whatsappId: this.whatsappId,
          attempt,
          error: (err as Error).message,
        });
        await sleep(backoff(attempt++, RETRY_BASE_MS, CREDS_RETRY_CAP_MS));
      }
    }
    this.credsWriter = undefined;
  }

  async getKeys(type: string, ids: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const id of ids) {
      const sk = AuthStore.keySk(type, id);
      if (this.keys.has(sk)) {
        const v = this.keys.get(sk);
        if (v !== null && v !== undefined) out[id] = v;
      } else missing.push(id);
    }
    if (missing.length) {
      await this.writes;
      const changes = this.changes;
      const found = await batchGet<KeyItem>(
        missing.map((id) => ({ pk: this.pk, sk: AuthStore.keySk(type, id) })),
        { consistent: true },
      );
      const bySk = new Map<string, unknown>();
      for (const item of found) bySk.set(item.sk, await this.decodeItem(item));
      // a key set while this read was on its way is newer than what the read found
      const current = this.changes === changes;
      for (const id of missing) {
        const sk = AuthStore.keySk(type, id);
        const value = bySk.get(sk) ?? null;
        if (current) this.keys.set(sk, value);
        if (value !== null) out[id] = value;
      }
    }
    return out;
  }

  /** Stores (or, for null/undefined values, deletes) keys; resolves once DynamoDB has them. */
  async setKeys(data: Record<string, Record<string, unknown | null | undefined>>) {
    const puts: Item[] = [];
    const deletes: Key[] = [];
    const sks: string[] = [];
    for (const [type, entries] of Object.entries(data)) {
      for (const [id, value] of Object.entries(entries ?? {})) {
        const sk = AuthStore.keySk(type, id);
        const items = this.encodeItems(sk, value ?? null);
        this.keys.set(sk, value ?? null);
        sks.push(sk);
        puts.push(...items.puts);
        deletes.push(...items.deletes);
      }
    }
    this.changes++;
    if (!puts.length && !deletes.length) return;
    try {
      await this.serial(() => this.writeBatch(puts, deletes));
    } catch (err) {
      // not stored: the next read asks DynamoDB
      for (const sk of sks) this.keys.del(sk);
      throw err;
    }
  }

  /** One set's items: in one transaction when DynamoDB allows it (all or none), else in batches; tried a few times. */
  private async writeBatch(puts: Item[], deletes: Key[]) {
    const count = puts.length + deletes.length;
    const bytes = puts.reduce((n, p) => n + (p.data?.length ?? 0) + (p.bin?.length ?? 0) + p.sk.length, 0);
    const atomic = count > 1 && count <= TRANSACT_MAX_ITEMS && bytes <= TRANSACT_MAX_BYTES;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.writeItems(puts, deletes, atomic);
        return;
      } catch (err) {
        if (err instanceof SessionNotHeld || attempt >= KEY_WRITE_ATTEMPTS) throw err;
        await sleep(backoff(attempt, RETRY_BASE_MS, KEY_RETRY_CAP_MS));
      }
    }
  }

  /** The items that store `value` under `sk` (null: deletes it), and the parts of an older value to drop. */
  private encodeItems(sk: string, value: unknown) {
    const puts: Item[] = [];
    const deletes: Key[] = [];
    const before = this.partsOf.get(sk) ?? 0;
    let parts = 0;
    if (value === null) deletes.push({ pk: this.pk, sk });
    else {
      const text = this.codec.encode(value);
      if (Buffer.byteLength(text) <= INLINE_LIMIT) puts.push({ pk: this.pk, sk, data: text });
      else {
        const zipped = gzipSync(text);
        parts = Math.ceil(zipped.length / INLINE_LIMIT);
        for (let n = 0; n < parts; n++)
          puts.push({
            pk: this.pk,
            sk: AuthStore.partSk(sk, n),
            bin: zipped.subarray(n * INLINE_LIMIT, (n + 1) * INLINE_LIMIT),
          });
        // the parts first: the item that points to them is written last
        puts.push({ pk: this.pk, sk, parts });
      }
    }
    for (let n = parts; n < before; n++) deletes.push({ pk: this.pk, sk: AuthStore.partSk(sk, n) });
    if (parts) this.partsOf.set(sk, parts);
    else this.partsOf.del(sk);
    return { puts, deletes };
  }

  private async decodeItem(item: KeyItem): Promise<unknown> {
    if (!item.parts) return this.codec.decode(item.data ?? 'null');
    this.partsOf.set(item.sk, item.parts);
    const keys = Array.from({ length: item.parts }, (_, n) => ({ pk: this.pk, sk: AuthStore.partSk(item.sk, n) }));
    const found = new Map(
      (await batchGet<PartItem>(keys, { consistent: true })).map((p) => [p.sk, Buffer.from(p.bin)]),
    );
    const zipped = Buffer.concat(keys.map((k) => found.get(k.sk) ?? Buffer.alloc(0)));
    return this.codec.decode(gunzipSync(zipped).toString());
  }

  /**
   * Sets plain string fields on items of `type` (`KEY#<type>#<id>`) without reading them: fields
   * not named keep their stored value. Not cached. The address book's entries, which change one
   * name at a time.
   */
  async setFields(type: string, entries: Map<string, Record<string, string>>) {
    const generation = this.generation;
    const queue = [...entries];
    const worker = async () => {
      for (let next = queue.shift(); next && this.generation === generation && !this.closed; next = queue.shift()) {
        const [id, fields] = next;
        const key = { pk: this.pk, sk: AuthStore.keySk(type, id) };
        if (this.holder) await this.writeGuarded([updateTx(key, { set: fields })], () => 0);
        else await updateItem(key, { set: fields });
      }
    };
    await Promise.all(Array.from({ length: Math.min(FIELD_WRITE_CONCURRENCY, queue.length) }, worker));
  }

  /** Every item of `type` set with setFields, by id. */
  async fieldsOf(type: string): Promise<Map<string, Record<string, string>>> {
    const prefix = AuthStore.keySk(type, '');
    const items = await queryAll<Item>({ pk: this.pk, sk: { beginsWith: prefix } });
    return new Map(items.map(({ pk: _pk, sk, ...fields }) => [String(sk).slice(prefix.length), fields]));
  }

  /** Logged out: every item of the session goes, and creds not yet written are not written. */
  async clear() {
    this.keys.flushAll();
    this.partsOf.flushAll();
    this.creds = undefined;
    this.credsStored = this.credsVersion;
    this.changes++;
    this.generation++;
    await this.serial(async () => {
      const items = await queryAll<{ pk: string; sk: string }>({ pk: this.pk, projection: ['pk', 'sk'] });
      const keys = items.map(({ pk, sk }) => ({ pk, sk }));
      if (this.holder) {
        // the creds last, as below
        const rest = keys.filter((k) => k.sk !== 'creds');
        await this.writeGuarded(
          [...rest, { pk: this.pk, sk: 'creds' }].map((key) => deleteTx(key)),
          () => 0,
        );
        return;
      }
      if (keys.length) await batchWrite([], keys);
      await deleteItem({ pk: this.pk, sk: 'creds' });
    });
  }

  /** Resolves once every write asked for so far is stored, creds included (shutdown). */
  async flush() {
    for (;;) {
      const writes = this.writes;
      await Promise.all([this.credsWriter, writes]);
      if (!this.credsWriter && writes === this.writes) return;
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writes.then(fn, fn);
    this.writes = run.catch(() => undefined);
    return run;
  }
}

/** A put's stored bytes, near enough to keep a transaction under DynamoDB's 4 MB. */
function itemBytes(item: TransactItem): number {
  const put = item.Put?.Item as Item | undefined;
  if (!put) return 0;
  return (put.data?.length ?? 0) + (put.bin?.length ?? 0) + String(put.sk).length;
}
