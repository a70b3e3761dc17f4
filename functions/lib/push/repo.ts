import type { PushDevice, PushKind, PushPreferences } from '#shared/schemas/push';
import {
  deleteTx,
  getItem,
  putTx,
  query,
  queryAll,
  transact,
  updateItem,
  type Item,
  type Key,
  type TransactItem,
} from '../db';
import { AppError } from '../errors';

/**
 * Web Push subscriptions (one per browser endpoint):
 * - subscription: pk `C#<cid>#PUSH`, sk `SUB#<id>` (id: endpointId(), 32 hex of the endpoint's
 *   sha256), gsi1 `C#<cid>#PUSHU#<userId>` / `SUB#<id>`: a user's devices in one Query, every device
 *   of the company in one Query of its partition (the pending-ticket fan-out);
 * - endpoint owner: pk `PUSHEP#<id>`, sk `PUSHEP` ({ companyId, userId }): a browser belongs to the
 *   last user who subscribed it, in whichever company, so a shared browser never shows the previous
 *   user's notifications.
 */
export interface StoredSubscription {
  id: string;
  companyId: number;
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  device: string;
  preferences: PushPreferences;
  createdAt: string;
  updatedAt: string;
}

export const subscriptionsPk = (companyId: number) => `C#${companyId}#PUSH`;
export const subscriptionKeys = (companyId: number, id: string) => ({
  pk: subscriptionsPk(companyId),
  sk: `SUB#${id}`,
});
const userSubscriptionsPk = (companyId: number, userId: number) => `C#${companyId}#PUSHU#${userId}`;
export const endpointOwnerKeys = (id: string) => ({ pk: `PUSHEP#${id}`, sk: 'PUSHEP' });

const subscriptionItem = (s: StoredSubscription): Item => ({
  ...subscriptionKeys(s.companyId, s.id),
  gsi1pk: userSubscriptionsPk(s.companyId, s.userId),
  gsi1sk: `SUB#${s.id}`,
  ...s,
});

const toSubscription = (item: Item): StoredSubscription => ({
  id: item.id,
  companyId: item.companyId,
  userId: item.userId,
  endpoint: item.endpoint,
  keys: item.keys,
  device: item.device ?? '',
  preferences: item.preferences,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
});

/** What its owner sees of a subscription: never the keys. */
export const toDevice = (s: StoredSubscription): PushDevice => ({
  id: s.id,
  endpoint: s.endpoint,
  device: s.device,
  preferences: s.preferences,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export async function getSubscription(companyId: number, id: string): Promise<StoredSubscription | undefined> {
  const item = await getItem(subscriptionKeys(companyId, id));
  return item ? toSubscription(item) : undefined;
}

/**
 * Writes the subscription for its user (a new one, or the same endpoint again) and makes the user
 * the endpoint's owner: the same endpoint under another user of the company is overwritten (same
 * key), under another company deleted, in one transaction.
 */
export async function putSubscription(sub: StoredSubscription) {
  const owner = await getItem<{ companyId: number }>(endpointOwnerKeys(sub.id));
  const items: TransactItem[] = [
    putTx(subscriptionItem(sub)),
    putTx({ ...endpointOwnerKeys(sub.id), companyId: sub.companyId, userId: sub.userId }),
  ];
  if (owner && owner.companyId !== sub.companyId) items.push(deleteTx(subscriptionKeys(owner.companyId, sub.id)));
  await transact(items);
}

/** A user's devices (one Query on gsi1), oldest first. */
export async function listUserSubscriptions(companyId: number, userId: number): Promise<StoredSubscription[]> {
  const items = await queryAll({ index: 'gsi1', pk: userSubscriptionsPk(companyId, userId) });
  return items.map(toSubscription).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Every device of the company that wants `kind` (one Query of the company's push partition, paged). */
export async function listCompanySubscriptions(companyId: number, kind: PushKind): Promise<StoredSubscription[]> {
  const items = await queryAll({
    pk: subscriptionsPk(companyId),
    sk: { beginsWith: 'SUB#' },
    // a kind added after the device subscribed is on until its user turns it off
    filter: '#p.#k = :yes OR attribute_not_exists(#p.#k)',
    filterNames: { '#p': 'preferences', '#k': kind },
    filterValues: { ':yes': true },
  });
  return items.map(toSubscription);
}

/** Changes the owner's device; another user's (or an unknown) id is not found. */
export async function updateSubscription(
  companyId: number,
  userId: number,
  id: string,
  set: { device?: string; preferences?: PushPreferences; updatedAt: string },
): Promise<StoredSubscription> {
  const item = await updateItem(subscriptionKeys(companyId, id), {
    set,
    condition: 'attribute_exists(pk) AND #owner = :owner',
    conditionNames: { '#owner': 'userId' },
    conditionValues: { ':owner': userId },
  });
  if (!item) throw new AppError('ERR_PUSH_SUBSCRIPTION_NOT_FOUND');
  return toSubscription(item);
}

const deleteIf = (key: Key, condition: string, values: Record<string, unknown>): TransactItem => ({
  Delete: { ...deleteTx(key).Delete!, ConditionExpression: condition, ExpressionAttributeValues: values },
});

/**
 * Deletes a user's subscription (and the endpoint's owner record while it still names them);
 * another user's (or an unknown) id is not found.
 */
export async function deleteSubscription(companyId: number, userId: number, id: string) {
  await transact(
    [deleteIf(subscriptionKeys(companyId, id), 'userId = :u', { ':u': userId })],
    () => new AppError('ERR_PUSH_SUBSCRIPTION_NOT_FOUND'),
  );
  await transact([
    deleteIf(endpointOwnerKeys(id), 'companyId = :c AND userId = :u', { ':c': companyId, ':u': userId }),
  ]).catch((err) => {
    // the browser has a newer owner already: their record stays
    if (!(err instanceof AppError)) throw err;
  });
}

/** A deleted company's subscriptions and the endpoint owners that still name it (company cleanup). */
export async function removeCompanySubscriptions(companyId: number): Promise<number> {
  let removed = 0;
  let startKey: Item | undefined;
  do {
    const page = await query({ pk: subscriptionsPk(companyId), startKey, limit: 100, projection: ['pk', 'sk', 'id'] });
    for (const item of page.items) {
      await transact([
        deleteTx({ pk: item.pk, sk: item.sk }),
        deleteIf(endpointOwnerKeys(item.id), 'companyId = :c', { ':c': companyId }),
      ]).catch(async (err) => {
        // the browser moved to another company: only our subscription goes
        if (!(err instanceof AppError)) throw err;
        await transact([deleteTx({ pk: item.pk, sk: item.sk })]);
      });
      removed++;
    }
    startKey = page.lastKey;
  } while (startKey);
  return removed;
}
