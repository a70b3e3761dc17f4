import { randomBytes } from 'node:crypto';
import type { Message } from '#shared/schemas/messages';
import { getItem, query, stripKeys, type Item } from '../db';
import { presignGet } from '../storage';
import { mergeRecordKeys } from '../contacts/repo';

/**
 * A message: pk `C#<cid>#MSG#<contactId>#<whatsappId>`, sk `M#<id>`. One partition holds a
 * contact's conversation on one connection across all its tickets, so a page of a ticket's
 * history (with the earlier tickets for the ticket-change banner) is one Query, newest first.
 * - `id` is the arrival order: 9 base36 chars of the message's whole second (WhatsApp's clock for
 *   inbound, ours for outbound), 9 of the millisecond we stored it, 8 random; WhatsApp's seconds
 *   tie often, and the stored millisecond keeps the order messages of one chat arrived in (the
 *   inbound queue hands them over one at a time per chat). Older 17-char ids (millisecond + 8
 *   random) still sort among them by their time;
 * - the API's id names the conversation after that arrival part (`<arrival>-<contactId>-<whatsappId>`,
 *   both base36), so a message is found by id with one GetItem and needs no id index: a new
 *   message is one item write, not two (issue 15). Ids stored before this carry no conversation and
 *   are still found through gsi1 `C#<cid>#MID#<id>` / `M`, which only they are written to;
 * - the guard `C#<cid>#WID#<wid>` / `WID` {msgPk, msgSk, messageId} makes a WhatsApp id stored
 *   once (redelivery, the echo of our own send) and finds a message by wid (acks, edits, revokes).
 */
export const conversationPk = (companyId: number, contactId: number, whatsappId: number) =>
  `C#${companyId}#MSG#${contactId}#${whatsappId}`;
export const messageKeys = (companyId: number, contactId: number, whatsappId: number, id: string) => ({
  pk: conversationPk(companyId, contactId, whatsappId),
  sk: `M#${id}`,
});
export const widGuardKeys = (companyId: number, wid: string) => ({ pk: `C#${companyId}#WID#${wid}`, sk: 'WID' });
const idIndexPk = (companyId: number, id: string) => `C#${companyId}#MID#${id}`;

const base36 = (n: number, width: number) => n.toString(36).padStart(width, '0');

export function newMessageId(atMs = Date.now(), storedAtMs = Date.now()): string {
  const random = BigInt(`0x${randomBytes(6).toString('hex')}`).toString(36);
  return base36(Math.floor(atMs / 1000) * 1000, 9) + base36(storedAtMs, 9) + random.padStart(8, '0').slice(-8);
}

/** The API id of a new message: its arrival id (the order) followed by the conversation it is stored in. */
export const conversationMessageId = (
  c: { contactId: number; whatsappId: number },
  atMs = Date.now(),
  storedAtMs = Date.now(),
) => `${newMessageId(atMs, storedAtMs)}-${c.contactId.toString(36)}-${c.whatsappId.toString(36)}`;

const CONVERSATION_ID = /^[0-9a-z]{26}-([0-9a-z]{1,11})-([0-9a-z]{1,11})$/;

/** Where a message with this id is stored, when the id names it (undefined for older ids). */
export function messageKeysOfId(companyId: number, id: string) {
  const m = CONVERSATION_ID.exec(id);
  if (!m) return undefined;
  return messageKeys(companyId, Number.parseInt(m[1]!, 36), Number.parseInt(m[2]!, 36), id);
}

/** A WhatsApp message id in the form WhatsApp Web uses (`3EB0` + 18 hex), chosen before the send. */
export const newWid = () => `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;

export function messageItem(m: Message): Item {
  return {
    ...messageKeys(m.companyId, m.contactId, m.whatsappId, m.id),
    ...m,
    // only ids that do not name their conversation need the id index
    ...(CONVERSATION_ID.test(m.id) ? {} : { gsi1pk: idIndexPk(m.companyId, m.id), gsi1sk: 'M' }),
  };
}

export const toMessage = (item: Item) => stripKeys(item) as Message & { pk?: never };

/** A message as read from the table, with the key it is stored under (for conditional updates). */
export type StoredMessage = Message & { key: { pk: string; sk: string } };

export async function getMessageById(companyId: number, id: string): Promise<StoredMessage | undefined> {
  const keys = messageKeysOfId(companyId, id);
  const item = keys
    ? ((await getItem(keys)) ?? (await afterMerge(companyId, id)))
    : (await query({ index: 'gsi1', pk: idIndexPk(companyId, id), limit: 1 })).items[0];
  return item ? { ...(toMessage(item) as Message), key: { pk: item.pk, sk: item.sk } } : undefined;
}

/**
 * A message whose id names a contact merged into another since: its conversation moved to the
 * kept contact (a merge record says which; a kept contact may have been merged again).
 */
async function afterMerge(companyId: number, id: string) {
  const m = CONVERSATION_ID.exec(id)!;
  let contactId = Number.parseInt(m[1]!, 36);
  const whatsappId = Number.parseInt(m[2]!, 36);
  for (let hop = 0; hop < 3; hop++) {
    const merged = await getItem<{ keepId: number }>(mergeRecordKeys(companyId, contactId));
    if (!merged) return undefined;
    contactId = merged.keepId;
    const item = await getItem(messageKeys(companyId, contactId, whatsappId, id));
    if (item) return item;
  }
  return undefined;
}

export async function getMessageByWid(companyId: number, wid: string): Promise<StoredMessage | undefined> {
  const guard = await getItem<{ msgPk: string; msgSk: string }>(widGuardKeys(companyId, wid));
  if (!guard) return undefined;
  const item = await getItem({ pk: guard.msgPk, sk: guard.msgSk });
  return item ? { ...(toMessage(item) as Message), key: { pk: guard.msgPk, sk: guard.msgSk } } : undefined;
}

/** The message as the API returns it: media as a short-lived presigned URL. */
export async function presentMessage(m: Message): Promise<Message> {
  const { mediaKey, ...rest } = m;
  return { ...rest, mediaUrl: mediaKey ? await presignGet(m.companyId, mediaKey) : (m.mediaUrl ?? null) };
}
