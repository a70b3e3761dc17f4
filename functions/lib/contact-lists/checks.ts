import type { ContactListItem } from '#shared/schemas/contact-lists';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { updateItem } from '../db';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { listWhatsapps } from '../whatsapp/repo';
import { sendSessionCommand } from '../whatsapp/commands';
import { enqueueCampaignJob } from '../campaigns/jobs';
import { itemKeys, requireContactListItem, toContactListItem } from './repo';

/**
 * The WhatsApp validity of contact list items, checked in the background by the session runner
 * (its `checkNumber` command). A write of items enqueues one `checkItems` job per ITEMS_PER_JOB items;
 * the job asks the runner of a connected connection (the default one first) about each number with a
 * reply id naming the item (`cli:<listId>:<itemId>`); the result updates `isWhatsappValid` and
 * publishes `contactListItem`. With no connected connection the items stay unchecked (null).
 */
const ITEMS_PER_JOB = 1000;
const REPLY_PREFIX = 'cli:';

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

/** The `checkItems` job: one checkNumber command per item, to a connected connection. */
export async function checkItems(job: { companyId: number; contactListId: number; itemIds: number[] }) {
  const connected = (await listWhatsapps(job.companyId))
    .filter((w) => w.status === 'CONNECTED')
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault))[0];
  if (!connected) return;
  const items = await Promise.all(
    job.itemIds.map((id) => requireContactListItem(job.companyId, id).catch(() => undefined)),
  );
  for (const item of items) {
    if (!item) continue;
    await sendSessionCommand({
      type: 'checkNumber',
      companyId: job.companyId,
      whatsappId: connected.id,
      number: item.number,
      replyTo: `${REPLY_PREFIX}${item.contactListId}:${item.id}:${item.number}`,
    });
  }
}

/** A runner's answer about a list item; false when the answer is not about one. */
export async function applyListItemCheck(event: Extract<InboundEvent, { type: 'checkNumberResult' }>) {
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
