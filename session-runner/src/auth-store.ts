import { gunzipSync, gzipSync } from 'node:zlib';
import { batchGet, batchWrite, deleteItem, getItem, queryAll, type Item } from '#lib/db';

export interface Codec {
  encode(value: unknown): string;
  decode(text: string): unknown;
}
const JSON_CODEC: Codec = { encode: (v) => JSON.stringify(v), decode: (t) => JSON.parse(t) };

/** Values longer than this are gzipped and split over part items (DynamoDB items stop at 400 KB). */
export const INLINE_LIMIT = 300_000;

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
 * Reads go through an in-memory cache kept for the life of the session (reconnects included) and
 * are strongly consistent after the store's own pending writes: creds written at pairing must be
 * read back right after the 515 restart, or the phone sees a new QR code. Writes are batched and
 * awaited (a key the provider was told is stored must survive a crash, or messages stop
 * decrypting), and run one batch at a time so a set and a delete of one key never land out of order.
 */
export class AuthStore {
  private cache = new Map<string, unknown | null>();
  /** part counts of the split values this store has seen, so a shrunk or deleted value leaves no parts behind */
  private partsOf = new Map<string, number>();
  private writes: Promise<unknown> = Promise.resolve();
  readonly pk: string;

  constructor(
    readonly companyId: number,
    readonly whatsappId: number,
    private codec: Codec = JSON_CODEC,
  ) {
    this.pk = `C#${companyId}#WAUTH#${whatsappId}`;
  }

  withCodec(codec: Codec) {
    // cached values were decoded with the old codec
    if (codec !== this.codec) this.cache.clear();
    this.codec = codec;
    return this;
  }

  private static keySk = (type: string, id: string) => `KEY#${type}#${id}`;
  private static partSk = (sk: string, n: number) => `${sk}#part#${n}`;

  async readCreds<T>(): Promise<T | undefined> {
    if (this.cache.has('creds')) return (this.cache.get('creds') ?? undefined) as T | undefined;
    await this.writes;
    const item = await getItem<KeyItem>({ pk: this.pk, sk: 'creds' }, { consistent: true });
    const value = item ? await this.decodeItem(item) : null;
    this.cache.set('creds', value);
    return (value ?? undefined) as T | undefined;
  }

  async writeCreds(value: unknown) {
    this.cache.set('creds', value);
    const { puts, deletes } = this.encodeItems('creds', value);
    await this.serial(() => batchWrite(puts, deletes));
  }

  async getKeys(type: string, ids: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const id of ids) {
      const sk = AuthStore.keySk(type, id);
      if (this.cache.has(sk)) {
        const v = this.cache.get(sk);
        if (v !== null && v !== undefined) out[id] = v;
      } else missing.push(id);
    }
    if (missing.length) {
      await this.writes;
      const found = await batchGet<KeyItem>(
        missing.map((id) => ({ pk: this.pk, sk: AuthStore.keySk(type, id) })),
        { consistent: true },
      );
      const bySk = new Map<string, unknown>();
      for (const item of found) bySk.set(item.sk, await this.decodeItem(item));
      for (const id of missing) {
        const sk = AuthStore.keySk(type, id);
        const value = bySk.get(sk) ?? null;
        this.cache.set(sk, value);
        if (value !== null) out[id] = value;
      }
    }
    return out;
  }

  /** Stores (or, for null/undefined values, deletes) keys; resolves once DynamoDB has them. */
  async setKeys(data: Record<string, Record<string, unknown | null | undefined>>) {
    const puts: Item[] = [];
    const deletes: { pk: string; sk: string }[] = [];
    for (const [type, entries] of Object.entries(data)) {
      for (const [id, value] of Object.entries(entries ?? {})) {
        const sk = AuthStore.keySk(type, id);
        const items = this.encodeItems(sk, value ?? null);
        this.cache.set(sk, value ?? null);
        puts.push(...items.puts);
        deletes.push(...items.deletes);
      }
    }
    if (puts.length || deletes.length) await this.serial(() => batchWrite(puts, deletes));
  }

  /** The items that store `value` under `sk` (null: deletes it), and the parts of an older value to drop. */
  private encodeItems(sk: string, value: unknown) {
    const puts: Item[] = [];
    const deletes: { pk: string; sk: string }[] = [];
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
    else this.partsOf.delete(sk);
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

  /** Logged out: every item of the session goes. */
  async clear() {
    this.cache.clear();
    this.partsOf.clear();
    await this.serial(async () => {
      const items = await queryAll<{ pk: string; sk: string }>({ pk: this.pk, projection: ['pk', 'sk'] });
      if (items.length)
        await batchWrite(
          [],
          items.map(({ pk, sk }) => ({ pk, sk })),
        );
      await deleteItem({ pk: this.pk, sk: 'creds' });
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writes.then(fn, fn);
    this.writes = run.catch(() => undefined);
    return run;
  }
}
