import { CAMPAIGN_MESSAGE_FIELDS } from '#shared/schemas/campaigns';
import { batchGet, batchWrite, query, updateItem, type Item } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { contactKeys, toContact } from '../contacts/repo';
import { ticketKeys } from '../tickets/repo';
import { tagLinksPk } from '../tags/repo';
import { ITEM_PREFIX, itemsPk } from '../contact-lists/repo';
import type { Contact } from '#shared/schemas/contacts';
import { loadFields } from '../custom-fields/repo';
import { getSegment } from '../segments/repo';
import { segmentContactsPage, type SegmentState } from '../segments/audience';
import {
  campaignKeys,
  contactShippingKeys,
  getStoredCampaign,
  shippingKeys,
  type StoredCampaign,
  type StoredShipping,
} from './repo';
import { enqueueCampaignJob, type CampaignJob } from './jobs';
import { announceCampaign } from './events';

/** Audience rows read per planning page (one Query, a few BatchGets and BatchWrites). */
export const PLAN_PAGE = 500;
/** Contacts a segment's planning page reads at most (a narrow segment takes more pages, each bounded). */
const SEGMENT_PLAN_BUDGET = 2000;

interface Recipient {
  number: string;
  name: string;
  contactListItemId?: number;
  contactId?: number;
}

/**
 * One page of the audience: a contact list's items (not known invalid), the contacts of a segment as
 * they are now (a segment deleted before planning gives none), or the contacts of a tag's tickets;
 * with those of them that have no number (`left`, known only by a `@lid` id). Groups are left out.
 */
async function audiencePage(
  c: StoredCampaign,
  startKey?: Item,
): Promise<{ recipients: Recipient[]; left: Contact[]; lastKey?: Item }> {
  if (c.contactListId) {
    const out = await query({
      pk: itemsPk(c.companyId, c.contactListId),
      sk: { beginsWith: ITEM_PREFIX },
      limit: PLAN_PAGE,
      startKey,
    });
    const recipients = out.items
      .filter((i) => i.isWhatsappValid !== false)
      .map((i) => ({ number: String(i.number), name: String(i.name), contactListItemId: Number(i.id) }));
    return { recipients, left: [], lastKey: out.lastKey };
  }
  if (c.segmentId) {
    const segment = await getSegment(c.companyId, c.segmentId);
    if (!segment) {
      log.warn('campaign segment not found', { companyId: c.companyId, campaignId: c.id, segmentId: c.segmentId });
      return { recipients: [], left: [] };
    }
    const { contacts, next } = await segmentContactsPage(
      c.companyId,
      segment,
      await loadFields(c.companyId),
      startKey as SegmentState | undefined,
      { limit: PLAN_PAGE, budget: SEGMENT_PLAN_BUDGET, also: (ct) => !ct.isGroup },
    );
    const recipients = contacts
      .filter((ct) => ct.number)
      .map((ct) => ({ number: ct.number, name: ct.name, contactId: ct.id }));
    return { recipients, left: contacts.filter((ct) => !ct.number), lastKey: next as Item | undefined };
  }
  const out = await query<{ ticketId: number }>({
    pk: tagLinksPk(c.companyId, c.tagId!),
    sk: { beginsWith: 'T#' },
    limit: PLAN_PAGE,
    startKey,
  });
  const tickets = await batchGet<{ contactId: number; isGroup?: boolean }>(
    out.items.map((l) => ticketKeys(c.companyId, l.ticketId)),
  );
  const contactIds = [...new Set(tickets.filter((t) => !t.isGroup).map((t) => t.contactId))];
  const contacts = (await batchGet(contactIds.map((id) => contactKeys(c.companyId, id)))).filter((ct) => !ct.isGroup);
  const recipients = contacts
    .filter((ct) => ct.number)
    .map((ct) => ({ number: String(ct.number), name: String(ct.name), contactId: Number(ct.id) }));
  return { recipients, left: contacts.filter((ct) => !ct.number).map(toContact), lastKey: out.lastKey };
}

const skipped = (c: StoredCampaign, ct: Contact): StoredShipping => ({
  companyId: c.companyId,
  campaignId: c.id,
  number: '',
  name: ct.name,
  status: 'skipped',
  variant: 1,
  messageId: null,
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  error: 'noNumber',
  contactId: ct.id,
});

const filledVariants = (c: StoredCampaign) =>
  CAMPAIGN_MESSAGE_FIELDS.map((f, i) => (c[f]?.trim() ? i + 1 : 0)).filter(Boolean);

/**
 * One planning page: a shipping item per new number (a variant chosen at random among the filled
 * ones), then the campaign's page counter moves page -> page + 1 with the count of new items, under a
 * condition, so a redelivered or duplicated page job writes nothing twice and counts nothing twice.
 * The last page marks the campaign planned and starts the send chain at step 1. Nothing is sent
 * while planning, so a page written again is only ever rewritten as pending.
 */
export async function planPage(job: Extract<CampaignJob, { kind: 'plan' }>) {
  const c = await getStoredCampaign(job.companyId, job.campaignId, true);
  if (c?.status !== 'EM_ANDAMENTO' || c.plannedAt || (c.planPage ?? 0) !== job.page) return;
  const { recipients, left, lastKey } = await audiencePage(c, job.startKey);
  const unique = [...new Map(recipients.map((r) => [r.number, r])).values()];
  const existing = new Set(
    (await batchGet<{ sk: string }>(unique.map((r) => shippingKeys(c.companyId, c.id, r.number)))).map((i) => i.sk),
  );
  const variants = filledVariants(c);
  const fresh = unique.filter((r) => !existing.has(shippingKeys(c.companyId, c.id, r.number).sk));
  await batchWrite(
    fresh.map((r) => {
      const shipping: StoredShipping = {
        companyId: c.companyId,
        campaignId: c.id,
        number: r.number,
        name: r.name,
        status: 'pending',
        variant: variants[Math.floor(Math.random() * variants.length)] ?? 1,
        messageId: null,
        sentAt: null,
        deliveredAt: null,
        readAt: null,
        error: null,
        ...(r.contactListItemId ? { contactListItemId: r.contactListItemId } : {}),
        ...(r.contactId ? { contactId: r.contactId } : {}),
      };
      return { ...shippingKeys(c.companyId, c.id, r.number), ...shipping };
    }),
  );
  // left out with the reason (rewritten alike by a redelivered page, never counted nor sent)
  await batchWrite(left.map((ct) => ({ ...contactShippingKeys(c.companyId, c.id, ct.id), ...skipped(c, ct) })));
  const done = !lastKey;
  const step = (c.step ?? 0) + 1;
  const moved = await updateItem(campaignKeys(c.companyId, c.id), {
    set: done
      ? { planPage: job.page + 1, plannedAt: nowIso(), step, updatedAt: nowIso() }
      : { planPage: job.page + 1, planStartKey: lastKey, updatedAt: nowIso() },
    add: { validContacts: fresh.length },
    ...(done ? { remove: ['planStartKey'] } : {}),
    condition: '#status = :running AND #page = :page AND attribute_not_exists(#planned)',
    conditionNames: { '#status': 'status', '#page': 'planPage', '#planned': 'plannedAt' },
    conditionValues: { ':running': 'EM_ANDAMENTO', ':page': job.page },
  });
  if (!moved) return;
  if (done) {
    log.info('campaign planned', { companyId: c.companyId, campaignId: c.id, pages: job.page + 1 });
    await enqueueCampaignJob({ kind: 'send', companyId: c.companyId, campaignId: c.id, step });
  } else {
    await enqueueCampaignJob({
      kind: 'plan',
      companyId: c.companyId,
      campaignId: c.id,
      page: job.page + 1,
      startKey: lastKey,
    });
  }
  await announceCampaign(moved, 'update');
}
