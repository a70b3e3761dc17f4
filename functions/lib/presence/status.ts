import type { UserStatus } from '#shared/schemas/presence';
import { statusOf, type PresenceEntry } from '#shared/presence';
import { getItem, query, type Item } from '../db';
import { userKeys } from '../accounts/users';

/**
 * Presence as read (issue 24): each user's status from their user item's `sockets`, `idle` (see
 * service.ts, which writes them and announces the changes). Read by GET /presence and by automatic
 * assignment (who can take a ticket now).
 */
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A user item's status now (see statusOf in shared/presence.ts). */
export const itemStatus = (item: Item, now = nowSeconds()): UserStatus =>
  statusOf(item.sockets as Set<string> | undefined, item.idle as Set<string> | undefined, now);

/** Everyone's status in the company: one Query of its users (a user absent from the map does not exist). */
export async function userStatuses(companyId: number): Promise<Map<number, UserStatus>> {
  const out = new Map<number, UserStatus>();
  for (const item of await presenceItems(companyId)) out.set(item.id as number, itemStatus(item));
  return out;
}

async function presenceItems(companyId: number): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await query({
      pk: `C#${companyId}`,
      sk: { beginsWith: 'USER#' },
      projection: ['id', 'name', 'sockets', 'idle'],
      startKey,
    });
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return items;
}

/** GET /presence: admins see every user of the company, others their own status. */
export async function listPresence(companyId: number, userId: number, admin: boolean): Promise<PresenceEntry[]> {
  const items = admin
    ? await presenceItems(companyId)
    : [await getItem(userKeys(companyId, userId))].filter((i): i is Item => Boolean(i));
  return items.map((i) => ({ userId: i.id as number, name: String(i.name ?? ''), status: itemStatus(i) }));
}
