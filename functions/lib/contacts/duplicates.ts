import type { Contact, ContactDuplicate, DuplicateReason } from '#shared/schemas/contacts';
import { batchGet, putItem, query, type Item } from '../db';
import { decodeCursor, encodeCursor } from '../cursor';
import { AppError } from '../errors';
import { nowIso, pad } from '../keys';
import {
  contactIndex,
  contactKeys,
  duplicateGroupOf,
  duplicateKeys,
  phoneKey,
  requireContact,
  toContact,
} from './repo';

/**
 * Suggested duplicates (GET /contacts/duplicates). Every contact with a number sits on two index
 * partitions in key order (see repo.ts): gsi4 by phone key, gsi5 by name + number suffix. Contacts
 * sharing a key are neighbours there, so a page reads a stretch of one index (Query, keys only),
 * groups equal keys and answers the pairs of each group: phone keys first, then names. The reasons
 * are worked out again from the two contacts as they are now; a pair an admin said is "not a
 * duplicate" is remembered (`C#<cid>#CDUPNO` / `<pad(low id)>#<pad(high id)>`) and left out.
 */
const PHASES = [
  { index: 'gsi4', pk: contactIndex.dupPhone },
  { index: 'gsi5', pk: contactIndex.dupName },
] as const;
/** Index entries one Query reads, and Queries one request makes at most. */
const READ = 500;
const MAX_READS = 4;
const CURSOR_SCOPE = 'contact-duplicates';

export const dismissalKeys = (companyId: number, a: number, b: number) => ({
  pk: `C#${companyId}#CDUPNO`,
  sk: `${pad(Math.min(a, b))}#${pad(Math.max(a, b))}`,
});

/** Why two contacts look like one person (empty: they no longer do). */
export function duplicateReasons(a: Contact, b: Contact): DuplicateReason[] {
  if (a.id === b.id) return [];
  const ka = duplicateKeys(a);
  const kb = duplicateKeys(b);
  const reasons: DuplicateReason[] = [];
  if (ka.phone && ka.phone === kb.phone) {
    const viaLid = !phoneKey(a.number) || !phoneKey(b.number);
    reasons.push(viaLid ? 'lid' : 'number');
  }
  if (ka.name && ka.name === kb.name) reasons.push('name');
  return reasons;
}

interface Group {
  ids: number[];
}

/**
 * Reads one index from `startKey` until it has `want` pairs or read MAX_READS pages. A group of
 * equal keys cut by the page's end is read again by the next request (the cursor points before it).
 */
async function readGroups(index: string, pk: string, startKey: Item | undefined, want: number) {
  const groups: Group[] = [];
  let current: { key: string; ids: number[]; startAfter: Item | undefined } | undefined;
  let previous: Item | undefined = startKey;
  let pairs = 0;
  for (let reads = 0; reads < MAX_READS; reads++) {
    const page = await query({ index, pk, startKey, limit: READ });
    for (const entry of page.items) {
      const key = duplicateGroupOf(String(entry[`${index}sk`]));
      if (current?.key === key) current.ids.push(Number(entry.id));
      else {
        if (current && current.ids.length > 1) {
          groups.push({ ids: current.ids });
          pairs += (current.ids.length * (current.ids.length - 1)) / 2;
        }
        current = { key, ids: [Number(entry.id)], startAfter: previous };
      }
      previous = {
        pk: entry.pk,
        sk: entry.sk,
        [`${index}pk`]: entry[`${index}pk`],
        [`${index}sk`]: entry[`${index}sk`],
      };
    }
    startKey = page.lastKey;
    if (!startKey) {
      if (current && current.ids.length > 1) groups.push({ ids: current.ids });
      return { groups, next: undefined };
    }
    // the open group may go on in the next page: read on while it is the only one
    if (pairs >= want && groups.length) break;
  }
  // resume before the open group (it follows a closed one, so that is past this request's start)
  return { groups, next: groups.length && current?.startAfter ? current.startAfter : startKey };
}

export async function listDuplicates(
  companyId: number,
  f: { cursor?: string; limit?: number },
): Promise<{ suggestions: ContactDuplicate[]; hasMore: boolean; cursor?: string }> {
  const position = (await decodeCursor(companyId, f.cursor, CURSOR_SCOPE)) as { phase: number; key?: Item } | undefined;
  let phase = position?.phase ?? 0;
  if (!PHASES[phase]) throw new AppError('ERR_INVALID_CURSOR');
  const want = f.limit ?? 20;
  const suggestions: ContactDuplicate[] = [];
  let next: { phase: number; key?: Item } | undefined;
  let startKey = position?.key;
  while (phase < PHASES.length) {
    const { index, pk } = PHASES[phase]!;
    const read = await readGroups(index, pk(companyId), startKey, want - suggestions.length);
    suggestions.push(...(await pairsOf(companyId, read.groups, phase)));
    if (read.next) {
      next = { phase, key: read.next };
      break;
    }
    phase += 1;
    startKey = undefined;
    if (suggestions.length >= want && phase < PHASES.length) {
      next = { phase };
      break;
    }
  }
  const cursor = next ? await encodeCursor(companyId, next as unknown as Item, CURSOR_SCOPE) : undefined;
  return { suggestions, hasMore: Boolean(next), cursor };
}

/** The pairs of each group, both contacts read, minus dismissed pairs and pairs the phone pass listed. */
async function pairsOf(companyId: number, groups: Group[], phase: number): Promise<ContactDuplicate[]> {
  const pairs = groups.flatMap((g) =>
    g.ids.flatMap((a, i) => g.ids.slice(i + 1).map((b) => [Math.min(a, b), Math.max(a, b)] as const)),
  );
  if (!pairs.length) return [];
  const ids = [...new Set(pairs.flat())];
  const [contacts, dismissed] = await Promise.all([
    batchGet(ids.map((id) => contactKeys(companyId, id))),
    batchGet(pairs.map(([a, b]) => dismissalKeys(companyId, a, b))),
  ]);
  const byId = new Map(contacts.map((item) => [Number(item.id), toContact(item)]));
  const no = new Set(dismissed.map((d) => String(d.sk)));
  const out: ContactDuplicate[] = [];
  for (const [a, b] of pairs) {
    const ca = byId.get(a);
    const cb = byId.get(b);
    if (!ca || !cb || no.has(dismissalKeys(companyId, a, b).sk)) continue;
    const reasons = duplicateReasons(ca, cb);
    // the name pass leaves out what the phone pass listed already
    if (!reasons.length || (phase === 1 && reasons[0] !== 'name')) continue;
    out.push({ contacts: [ca, cb], reasons });
  }
  return out;
}

/** "Not duplicates": the pair is left out of the suggestions from now on. */
export async function dismissDuplicate(companyId: number, ids: [number, number], userId: number | null) {
  if (ids[0] === ids[1]) throw new AppError('ERR_MERGE_SAME_CONTACT');
  await Promise.all(ids.map((id) => requireContact(companyId, id)));
  await putItem({ ...dismissalKeys(companyId, ids[0], ids[1]), contactIds: ids, userId, at: nowIso() });
}
