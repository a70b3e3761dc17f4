import { contactMatchesSegment, type Segment } from '#shared/schemas/segments';
import type { CustomField } from '#shared/schemas/custom-fields';
import type { Contact } from '#shared/schemas/contacts';
import { batchGet, query, type Item } from '../db';
import { contactIndex, contactKeys, toContact } from '../contacts/repo';
import { tagLinksPk } from '../tags/repo';
import { ticketKeys } from '../tickets/repo';

/**
 * Where a segment's reading stopped: the tag of its tag condition being read (`t`, an index into its
 * ids) and the start key in that tag's links, or in the company's contacts by name. Carried in a
 * signed cursor (contacts list) or in the campaign's planning job.
 */
export interface SegmentState {
  t?: number;
  k?: Item;
}

export interface SegmentPageOptions {
  /** matches wanted; a page may hold a few more (a read chunk is never cut) or fewer (the budget ran out) */
  limit: number;
  /** contacts (or tag links) read at most by one call: the cost of one page does not grow with the company */
  budget: number;
  /** more conditions a contact must meet (the contacts list's search, field and date filters) */
  also?: (contact: Contact) => boolean;
}

/**
 * One page of a segment's contacts, read where they can be found without a Scan:
 * - with a tag condition, the tickets of each of its tags (the tag's links, then the tickets and
 *   their contacts by BatchGet), tag after tag; a contact with tickets under several of them may come
 *   again on a later page (a campaign keeps one shipping per number);
 * - otherwise the company's contacts in name order (gsi1).
 * Every contact read is checked with `contactMatchesSegment`, so a page costs the contacts read, not
 * the ones kept: a narrow segment of a large company takes several pages, each within the budget.
 */
export async function segmentContactsPage(
  companyId: number,
  segment: Segment,
  fields: CustomField[],
  state: SegmentState | undefined,
  opts: SegmentPageOptions,
): Promise<{ contacts: Contact[]; next?: SegmentState }> {
  const tagCondition = segment.conditions.find((c) => c.type === 'tag');
  const keep = (c: Contact & { tagIds?: number[] }) =>
    contactMatchesSegment(segment, c, fields) && (!opts.also || opts.also(c));
  const out: Contact[] = [];
  let read = 0;
  if (!tagCondition) {
    let key = state?.k;
    do {
      const chunk = await query({
        index: 'gsi1',
        pk: contactIndex.byName(companyId),
        limit: Math.min(Math.max(opts.limit * 2, 50), opts.budget - read),
        startKey: key,
      });
      read += chunk.items.length;
      out.push(...chunk.items.map(toContact).filter(keep));
      key = chunk.lastKey;
    } while (key && out.length < opts.limit && read < opts.budget);
    return { contacts: out, next: key ? { k: key } : undefined };
  }
  const tags = tagCondition.ids;
  let t = state?.t ?? 0;
  let key = state?.k;
  const seen = new Set<number>();
  while (t < tags.length && out.length < opts.limit && read < opts.budget) {
    const links = await query<{ ticketId: number }>({
      pk: tagLinksPk(companyId, tags[t]!),
      sk: { beginsWith: 'T#' },
      limit: Math.min(Math.max(opts.limit * 2, 50), opts.budget - read),
      startKey: key,
    });
    read += links.items.length;
    const tickets = await batchGet<{ contactId: number; tagIds?: number[] }>(
      links.items.map((l) => ticketKeys(companyId, l.ticketId)),
      { projection: ['contactId', 'tagIds'] },
    );
    // the tags a contact's tickets of this page carry: what the tag condition asks of it
    const tagsOf = new Map<number, Set<number>>();
    for (const ticket of tickets) {
      const set = tagsOf.get(ticket.contactId) ?? new Set([tags[t]!]);
      for (const id of ticket.tagIds ?? []) set.add(id);
      tagsOf.set(ticket.contactId, set);
    }
    const ids = [...tagsOf.keys()].filter((id) => !seen.has(id));
    const contacts = (await batchGet(ids.map((id) => contactKeys(companyId, id)))).map(toContact);
    for (const contact of contacts.sort((a, b) => a.id - b.id)) {
      seen.add(contact.id);
      if (keep({ ...contact, tagIds: [...tagsOf.get(contact.id)!] })) out.push(contact);
    }
    key = links.lastKey;
    if (!key) t++;
  }
  return { contacts: out, next: t < tags.length ? { t, k: key } : undefined };
}
