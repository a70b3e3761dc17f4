import type { ContactListItem } from '#shared/schemas/contact-lists';
import { CHECK_BATCH, type InboundEvent } from '#shared/whatsapp-protocol';
import { isCloudProvider } from '#shared/constants';
import { getItem, query, updateItem, type Item } from '../db';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { listWhatsapps } from '../whatsapp/repo';
import { sendSessionCommand } from '../whatsapp/commands';
import { enqueueCampaignJob } from '../campaigns/jobs';
import { ITEM_PREFIX, itemKeys, itemsPk, requireContactListItem, toContactListItem } from './repo';

/**
 * The WhatsApp validity of contact list items, checked in the background by the session runner.
 * A write of items enqueues one `checkItems` job per ITEMS_PER_JOB items; the job asks the runner of
 * a connected connection (the default one first) about the numbers in `checkNumbers` commands of
 * CHECK_BATCH numbers each (one WhatsApp query each, paced by the runner, in a command lane of their
 * own so they never hold a send back), each number with a reply id naming its item
 * (`cli:<listId>:<itemId>:<number>`); each answer updates `isWhatsappValid` and publishes
 * `contactListItem`. With no connected connection the items stay unchecked (null) and
 * the list is noted on the company's deferred-check item (pk `C#<cid>`, sk `CLICHECK_DEFERRED`,
 * a set of list ids); the next connection of the company that comes up (`resumeNumberChecks`)
 * checks every item those lists still hold unchecked, a page per job.
 */
const ITEMS_PER_JOB = 1000;
const REPLY_PREFIX = 'cli:';
const deferredKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: 'CLICHECK_DEFERRED' });

type CheckJob = { companyId: number; contactListId: number; itemIds: number[]; unchecked?: boolean; startKey?: Item };

export async function requestNumberChecks(companyId: number, items: Pick<ContactListItem, 'id' | 'contactListId'>[]) {
  const byList = new Map<number, number[]>();
  for (const i of items) byList.set(i.contactListId, [...(byList.get(i.contactListId) ?? []), i.id]);
  for (const [contactListId, ids] of byList)
    for (let i = 0; i < ids.length; i += ITEMS_PER_JOB)
      await enqueueCampaignJob({
        kind: 'checkItems',
        companyId,
        contactListId,
        itemIds: ids.slice(i, i + ITEMS_PER_JOB),
      });
}

/** A connection of the company came up: lists whose checks waited for one are checked now. */
export async function resumeNumberChecks(companyId: number) {
  const deferred = await getItem<{ listIds?: Set<string> }>(deferredKeys(companyId), { consistent: true });
  const listIds = [...(deferred?.listIds ?? [])];
  if (!listIds.length) return;
  await updateItem(deferredKeys(companyId), { deleteFromSet: { listIds: new Set(listIds) } });
  for (const id of listIds)
    await enqueueCampaignJob({
      kind: 'checkItems',
      companyId,
      contactListId: Number(id),
      itemIds: [],
      unchecked: true,
    });
}

/** One page of a list's items still unchecked (null), and the job for the next page. */
async function uncheckedPage(job: CheckJob) {
  const out = await query({
    pk: itemsPk(job.companyId, job.contactListId),
    sk: { beginsWith: ITEM_PREFIX },
    filter: 'attribute_type(#valid, :null)',
    filterNames: { '#valid': 'isWhatsappValid' },
    filterValues: { ':null': 'NULL' },
    limit: ITEMS_PER_JOB,
    startKey: job.startKey,
  });
  if (out.lastKey) await enqueueCampaignJob({ ...job, kind: 'checkItems', startKey: out.lastKey });
  return out.items.map(toContactListItem);
}

/**
 * The `checkItems` job: a `checkNumbers` command per CHECK_BATCH items, to a connected connection
 * (none: the list waits on the deferred-check item for the next connection that comes up).
 */
export async function checkItems(job: CheckJob) {
  const connected = (await listWhatsapps(job.companyId))
    // number checks go through a session runner: a Cloud API number cannot make them
    .filter((w) => w.status === 'CONNECTED' && !isCloudProvider(w.provider))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault))[0];
  if (!connected) {
    await updateItem(deferredKeys(job.companyId), { add: { listIds: new Set([String(job.contactListId)]) } });
    return;
  }
  const items = job.unchecked
    ? await uncheckedPage(job)
    : await Promise.all(job.itemIds.map((id) => requireContactListItem(job.companyId, id).catch(() => undefined)));
  const checks = items
    .filter((item) => item !== undefined)
    .map((item) => ({
      number: item.number,
      replyTo: `${REPLY_PREFIX}${item.contactListId}:${item.id}:${item.number}`,
    }));
  for (let i = 0; i < checks.length; i += CHECK_BATCH)
    await sendSessionCommand({
      type: 'checkNumbers',
      companyId: job.companyId,
      whatsappId: connected.id,
      checks: checks.slice(i, i + CHECK_BATCH),
    });
}

/** A runner's answers about list items (a check that could not be made leaves its item unchecked). */
export async function applyListItemChecks(event: Extract<InboundEvent, { type: 'checkNumberResults' }>) {
  if (event.error) return;
  for (const result of event.results) await applyListItemCheck({ ...event, ...result });
}

/** A runner's answer about a list item; false when the answer is not about one. */
export async function applyListItemCheck(
  event: Pick<Extract<InboundEvent, { type: 'checkNumberResult' }>, 'companyId' | 'replyTo' | 'exists' | 'error'>,
) {
  if (!event.replyTo.startsWith(REPLY_PREFIX)) return false;
  if (event.error) return true;
  const [listId, itemId, number] = event.replyTo.slice(REPLY_PREFIX.length).split(':');
  // the item's number may have changed since: the answer counts only for the number it was asked about
  const updated = await updateItem(itemKeys(event.companyId, Number(listId), number!), {
    set: { isWhatsappValid: event.exists, updatedAt: nowIso() },
    condition: 'attribute_exists(pk) AND #id = :id',
    conditionNames: { '#id': 'id' },
    conditionValues: { ':id': Number(itemId) },
  });
  if (updated)
    await publish(event.companyId, 'contactListItem', { action: 'update', record: toContactListItem(updated) });
  return true;
}
