import type { Message } from '#shared/schemas/messages';
import { config } from '../config';
import { batchGet, query, transact, updateTx, type TransactItem } from '../db';
import { AppError } from '../errors';
import { conversationPk, messageItem, toMessage, widGuardKeys } from './repo';

/** Messages per transaction: each is a put, a conditional delete and its wid guard's update (< 100 items). */
const MOVE_PAGE = 25;

/**
 * Moves a contact's conversation on one connection into another contact's (a contact merge): each
 * message is written under the kept contact with the same sort key (ids keep their order), its
 * WhatsApp-id guard is pointed at the new key, and the old item is deleted, all in one transaction
 * per page. A message changed since it was read (an ack, an edit) fails its delete's condition and
 * the page is read again, so nothing is moved stale. Safe to run again after a crash: what moved is
 * gone from the old partition. Message ids keep naming the old conversation; `getMessageById`
 * follows the merge record to the kept contact (messages/repo.ts).
 * `extra(n)` joins each page's transaction (the merge record's count), `onMoved(n)` runs after it.
 */
export async function moveConversation(
  companyId: number,
  fromContactId: number,
  toContactId: number,
  whatsappId: number,
  hooks: { extra?: (n: number) => TransactItem[]; onMoved?: (n: number) => void } = {},
): Promise<number> {
  const pk = conversationPk(companyId, fromContactId, whatsappId);
  const newPk = conversationPk(companyId, toContactId, whatsappId);
  let moved = 0;
  for (let conflicts = 0; ; ) {
    const page = await query({ pk, sk: { beginsWith: 'M#' }, limit: MOVE_PAGE });
    if (!page.items.length) return moved;
    const messages = page.items.map((item) => ({ sk: String(item.sk), message: toMessage(item) as Message }));
    const wids = messages.map((m) => m.message.wid).filter((w): w is string => Boolean(w));
    const guards = await batchGet<{ pk: string; msgPk?: string }>(wids.map((w) => widGuardKeys(companyId, w)));
    const guarded = new Set(guards.filter((g) => g.msgPk === pk).map((g) => g.pk));
    const items: TransactItem[] = [];
    for (const { sk, message } of messages) {
      items.push({ Put: { TableName: config().tableName, Item: messageItem({ ...message, contactId: toContactId }) } });
      items.push({
        Delete: {
          TableName: config().tableName,
          Key: { pk, sk },
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#u) OR #u = :u)',
          ExpressionAttributeNames: { '#u': 'updatedAt' },
          ExpressionAttributeValues: { ':u': message.updatedAt ?? null },
        },
      });
      const guardKey = message.wid ? widGuardKeys(companyId, message.wid) : undefined;
      if (guardKey && guarded.has(guardKey.pk))
        items.push(
          updateTx(guardKey, {
            set: { msgPk: newPk },
            condition: 'msgPk = :old',
            conditionValues: { ':old': pk },
          }),
        );
    }
    try {
      await transact([...items, ...(hooks.extra?.(messages.length) ?? [])]);
    } catch (err) {
      // changed or moved meanwhile: read the page again
      if (err instanceof AppError && err.code === 'ERR_CONFLICT' && ++conflicts < 8) continue;
      throw err;
    }
    moved += messages.length;
    hooks.onMoved?.(messages.length);
  }
}
