import { batchGet, batchWrite, deleteItem, getItem, putItem, queryAll } from '#lib/db';

export interface Codec {
  encode(value: unknown): string;
  decode(text: string): unknown;
}
const JSON_CODEC: Codec = { encode: (v) => JSON.stringify(v), decode: (t) => JSON.parse(t) };

/**
 * A session's credentials and signal keys in DynamoDB, one item per key, never on disk:
 * pk `C#<cid>#WAUTH#<wid>`, sk `creds` or `KEY#<type>#<id>`. Reads go through an in-memory cache;
 * writes are batched and awaited (a key the provider was told is stored must survive a crash, or
 * messages stop decrypting), and run one batch at a time so a set and a delete of one key never
 * land out of order.
 */
export class AuthStore {
  private cache = new Map<string, unknown | null>();
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
    this.codec = codec;
    this.cache.clear();
    return this;
  }

  private static keySk = (type: string, id: string) => `KEY#${type}#${id}`;

  async readCreds<T>(): Promise<T | undefined> {
    if (this.cache.has('creds')) return (this.cache.get('creds') ?? undefined) as T | undefined;
    const item = await getItem<{ data: string }>({ pk: this.pk, sk: 'creds' });
    const value = item ? this.codec.decode(item.data) : null;
    this.cache.set('creds', value);
    return (value ?? undefined) as T | undefined;
  }

  async writeCreds(value: unknown) {
    this.cache.set('creds', value);
    await this.serial(() => putItem({ pk: this.pk, sk: 'creds', data: this.codec.encode(value) }));
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
      const found = await batchGet<{ sk: string; data: string }>(
        missing.map((id) => ({ pk: this.pk, sk: AuthStore.keySk(type, id) })),
      );
      const bySk = new Map(found.map((f) => [f.sk, this.codec.decode(f.data)]));
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
    const puts: Record<string, unknown>[] = [];
    const deletes: { pk: string; sk: string }[] = [];
    for (const [type, entries] of Object.entries(data)) {
      for (const [id, value] of Object.entries(entries ?? {})) {
        const sk = AuthStore.keySk(type, id);
        if (value === null || value === undefined) {
          this.cache.set(sk, null);
          deletes.push({ pk: this.pk, sk });
        } else {
          this.cache.set(sk, value);
          puts.push({ pk: this.pk, sk, data: this.codec.encode(value) });
        }
      }
    }
    if (puts.length || deletes.length) await this.serial(() => batchWrite(puts, deletes));
  }

  /** Logged out: every item of the session goes. */
  async clear() {
    this.cache.clear();
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
