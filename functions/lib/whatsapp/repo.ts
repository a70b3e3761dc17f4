import { createHash } from 'node:crypto';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { AppError } from '../errors';
import { getItem, queryAll, stripKeys, type Item } from '../db';
import { pad } from '../keys';

/**
 * A WhatsApp connection: pk `C#<cid>`, sk `WHATSAPP#<pad(id)>` (session status, QR and retries live
 * on the same item). Two guard items go with it:
 * - `C#<cid>` / `WHATSAPP_DEFAULT` names the company's one default connection;
 * - `WTOKEN#<sha256(token)>` / `WTOKEN` makes API tokens unique and finds a connection by token.
 */
export const whatsappKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `WHATSAPP#${pad(id)}` });
export const defaultGuardKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: 'WHATSAPP_DEFAULT' });
export const tokenGuardKeys = (token: string) => ({
  pk: `WTOKEN#${createHash('sha256').update(token).digest('hex')}`,
  sk: 'WTOKEN',
});
/** per-company count of connections, checked against the plan limit in the creating transaction */
export const CONNECTIONS_USAGE = 'usage#connections';

export const toWhatsapp = (item: Item) => stripKeys(item) as Whatsapp;

export async function getWhatsapp(companyId: number, id: number): Promise<Whatsapp | undefined> {
  const item = await getItem(whatsappKeys(companyId, id));
  return item ? toWhatsapp(item) : undefined;
}

/** Like getWhatsapp, but a missing (or foreign) connection is ERR_NO_WAPP_FOUND. */
export async function requireWhatsapp(companyId: number, id: number): Promise<Whatsapp> {
  const found = await getWhatsapp(companyId, id);
  if (!found) throw new AppError('ERR_NO_WAPP_FOUND');
  return found;
}

export async function listWhatsapps(companyId: number): Promise<Whatsapp[]> {
  const items = await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: 'WHATSAPP#' } });
  return items.map(toWhatsapp);
}

export async function defaultWhatsappId(companyId: number): Promise<number | undefined> {
  return (await getItem<{ whatsappId: number }>(defaultGuardKeys(companyId)))?.whatsappId;
}

/** The company's default connection; ERR_NO_DEF_WAPP_FOUND when it has none. */
export async function getDefaultWhatsapp(companyId: number): Promise<Whatsapp> {
  const id = await defaultWhatsappId(companyId);
  const found = id !== undefined ? await getWhatsapp(companyId, id) : undefined;
  if (!found) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return found;
}

/** The connection an external API token belongs to (one GetItem on the guard, one on the item). */
export async function findWhatsappByToken(token: string): Promise<Whatsapp | undefined> {
  if (!token) return undefined;
  const guard = await getItem<{ companyId: number; whatsappId: number }>(tokenGuardKeys(token));
  if (!guard) return undefined;
  const found = await getWhatsapp(guard.companyId, guard.whatsappId);
  // A stale guard (token changed in between) never authenticates.
  return found && found.token === token ? found : undefined;
}
