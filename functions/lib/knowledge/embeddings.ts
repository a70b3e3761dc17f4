import { createHash } from 'node:crypto';
import type { KnowledgePassage } from '#shared/schemas/knowledge';
import { batchGet, batchWrite } from '../db';
import { remember } from '../lru';

/**
 * Passage embeddings, computed once per passage text and model (docs/data-model.md):
 * - in the table: pk `C#<cid>#KBE`, sk `E#<model>#<sha256 of the text>`, the vector as float32 bytes
 *   (`vec`), with a TTL: a passage whose text changed leaves its old vector to expire, and a vector
 *   still in use is simply computed again after TTL_DAYS (nothing else has to clean up after a save);
 * - per instance: the vectors of each passages list loadPassages answered (one per LIVE version), and
 *   recent vectors by text, so a new version embeds only the passages whose text is new.
 * A question then costs no read of these: only a new version reads them (BatchGet), and only
 * passages found nowhere are sent to the provider.
 */
export const embeddingPk = (companyId: number) => `C#${companyId}#KBE`;
export const embeddingKeys = (companyId: number, model: string, hash: string) => ({
  pk: embeddingPk(companyId),
  sk: `E#${model}#${hash}`,
});
const TTL_DAYS = 90;
/** vectors kept by text per instance (1536 float32 = 6 KB each: about 120 MB at most) */
const MAX_KEPT_VECTORS = 20_000;

/** What the provider embeds for a passage: its article's title and its text. */
export const passageInput = (p: KnowledgePassage) => `${p.title}\n${p.text}`;

const byText = new Map<string, Float32Array>();
const byList = new WeakMap<KnowledgePassage[], Map<string, Float32Array[]>>();

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);
const toBytes = (v: Float32Array) => new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
const fromBytes = (b: Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * The vectors of `passages` (in order) for `model`: from this instance, else from the table, else
 * from `embed` (then stored). Throws what `embed` throws; nothing is kept from a failed call.
 */
export async function passageVectors(
  companyId: number,
  passages: KnowledgePassage[],
  model: string,
  embed: (texts: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const known = byList.get(passages)?.get(model);
  if (known) return known;
  const inputs = passages.map(passageInput);
  const hashes = inputs.map(hashOf);
  const keyOf = (hash: string) => `${companyId}|${model}|${hash}`;
  const found = new Map<string, Float32Array>();
  for (const h of hashes) {
    const kept = byText.get(keyOf(h));
    if (kept) found.set(h, kept);
  }
  const missing = [...new Set(hashes.filter((h) => !found.has(h)))];
  if (missing.length) {
    const stored = await batchGet<{ sk: string; vec: Uint8Array }>(
      missing.map((h) => embeddingKeys(companyId, model, h)),
      { projection: ['sk', 'vec'] },
    );
    for (const item of stored) found.set(item.sk.slice(`E#${model}#`.length), fromBytes(item.vec));
    const toEmbed = missing.filter((h) => !found.has(h));
    if (toEmbed.length) {
      const vectors = await embed(toEmbed.map((h) => inputs[hashes.indexOf(h)]!));
      const ttl = Math.floor(Date.now() / 1000) + TTL_DAYS * 86_400;
      await batchWrite(
        toEmbed.map((h, i) => ({ ...embeddingKeys(companyId, model, h), vec: toBytes(vectors[i]!), ttl })),
      );
      for (const [i, h] of toEmbed.entries()) found.set(h, vectors[i]!);
    }
    for (const h of missing) remember(byText, keyOf(h), found.get(h)!, MAX_KEPT_VECTORS);
  }
  const vectors = hashes.map((h) => found.get(h)!);
  const perModel = byList.get(passages) ?? new Map<string, Float32Array[]>();
  perModel.set(model, vectors);
  byList.set(passages, perModel);
  return vectors;
}

/** Forgets what this instance kept (tests: a new instance). */
export function forgetKeptVectors() {
  byText.clear();
}
