import { createHash } from 'node:crypto';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { AppError } from '../errors';
import { getItem, queryAll, stripKeys, type Item } from '../db';
import { pad } from '../keys';
import { remember } from '../lru';

/**
 * A WhatsApp connection: pk `C#<cid>`, sk `WHATSAPP#<pad(id)>` (session status, QR and retries live
 * on the same item). Two guard items go with it:
 * - `C#<cid>` / `WHATSAPP_DEFAULT` names the company's one default connection;
 * - `WTOKEN#<sha256(token)>` / `WTOKEN` makes API tokens unique and finds a connection by token.
 * The API token itself is never stored: the item holds `tokenHash` and `tokenHint` (its last
 * characters, for the masked form lists show).
 * A Cloud API connection (provider `cloud`), and a WhatsApp Web one with a Cloud API transport
 * attached (`cloudTransport`, whatsapp-cloud/transport.ts), also holds its access token and app secret sealed
 * (`accessTokenSealed`, `appSecretSealed`, secrets.ts) with their last characters, and two more guards:
 * - `WCLOUD#<phoneNumberId>` / `WCLOUD` routes Meta's webhooks to it (one connection per number, platform-wide);
 * - `WCLOUDVT#<sha256(verifyToken)>` / `WCLOUDVT` answers Meta's webhook verification;
 * - `WCLOUDWABA#<wabaId>` / `<cid>#<id>` finds the connections of a WhatsApp Business Account (its
 *   template webhooks name the account, not a number).
 */
export const whatsappKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `WHATSAPP#${pad(id)}` });
export const defaultGuardKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: 'WHATSAPP_DEFAULT' });
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const tokenGuardKeys = (tokenHash: string) => ({ pk: `WTOKEN#${tokenHash}`, sk: 'WTOKEN' });
export const cloudNumberKeys = (phoneNumberId: string) => ({ pk: `WCLOUD#${phoneNumberId}`, sk: 'WCLOUD' });
export const verifyTokenKeys = (hash: string) => ({ pk: `WCLOUDVT#${hash}`, sk: 'WCLOUDVT' });
export const wabaGuardKeys = (wabaId: string, companyId: number, whatsappId: number) => ({
  pk: `WCLOUDWABA#${wabaId}`,
  sk: `${companyId}#${whatsappId}`,
});
/** The token's stored fields; the plaintext goes back to the client once, in the response that set it. */
export const tokenFields = (token: string) => ({ tokenHash: hashToken(token), tokenHint: token.slice(-4) });
const maskToken = (hint: string | undefined) => (hint ? `********${hint}` : '');
/** per-company count of connections, checked against the plan limit in the creating transaction */
export const CONNECTIONS_USAGE = 'usage#connections';

/** A Cloud API connection's credentials as stored: sealed, with the last characters for the mask. */
export interface CloudSecrets {
  accessTokenSealed?: string;
  accessTokenHint?: string;
  appSecretSealed?: string;
  appSecretHint?: string;
}

type StoredWhatsapp = Omit<Whatsapp, 'token' | 'accessToken' | 'appSecret'> & {
  tokenHash?: string;
  tokenHint?: string;
  verifyTokenHash?: string;
} & CloudSecrets;

/**
 * Connections' providers this instance has read (any read of a connection item notes it): fixed
 * once a connection exists, and connection ids are never reused.
 */
const providers = new Map<string, string>();
const PROVIDERS_KEPT = 5000;

/** The connection with its tokens masked; the hash and the sealed secrets stay in the table. */
export function toWhatsapp(item: Item): Whatsapp {
  const {
    tokenHash: _hash,
    tokenHint,
    verifyTokenHash: _verify,
    accessTokenSealed: _access,
    accessTokenHint,
    appSecretSealed: _secret,
    appSecretHint,
    ...rest
  } = stripKeys(item) as StoredWhatsapp;
  const cloud =
    rest.provider === 'cloud' || rest.cloudTransport
      ? { accessToken: maskToken(accessTokenHint), appSecret: maskToken(appSecretHint) }
      : {};
  if (rest.provider) remember(providers, `${rest.companyId}:${rest.id}`, rest.provider, PROVIDERS_KEPT);
  return { ...rest, ...cloud, token: maskToken(tokenHint) };
}

/** The connection's provider when this instance has read the connection before (the send path's shortcut). */
export const knownProvider = (companyId: number, id: number) => providers.get(`${companyId}:${id}`);

/** A Cloud API connection's sealed credentials (for the services that open them, never for an answer). */
export async function storedCloudSecrets(companyId: number, id: number): Promise<CloudSecrets | undefined> {
  return getItem<CloudSecrets>(whatsappKeys(companyId, id));
}

/** What a Cloud API connection's guards are keyed by (to move or drop them). */
export async function storedCloudFields(
  companyId: number,
  id: number,
): Promise<{ phoneNumberId?: string; verifyTokenHash?: string } | undefined> {
  return getItem(whatsappKeys(companyId, id));
}

/** A Cloud API connection, or a WhatsApp Web one with its Cloud API transport attached. */
const reachesCloud = (item: Item | undefined): item is Item =>
  Boolean(item && (item.provider === 'cloud' || item.cloudTransport));

/** The connection Meta's webhook names by phone-number id (one GetItem on the guard, one on the item). */
export async function findCloudConnection(
  phoneNumberId: string,
): Promise<{ whatsapp: Whatsapp; secrets: CloudSecrets } | undefined> {
  const guard = await getItem<{ companyId: number; whatsappId: number }>(cloudNumberKeys(phoneNumberId));
  if (!guard) return undefined;
  const item = await getItem(whatsappKeys(guard.companyId, guard.whatsappId));
  if (!reachesCloud(item) || item.phoneNumberId !== phoneNumberId) return undefined;
  return { whatsapp: toWhatsapp(item), secrets: item as CloudSecrets };
}

/** The Cloud API connections of a WhatsApp Business Account, with their secrets (Meta's template webhooks). */
export async function findWabaConnections(wabaId: string): Promise<{ whatsapp: Whatsapp; secrets: CloudSecrets }[]> {
  const guards = await queryAll<{ companyId: number; whatsappId: number }>({ pk: `WCLOUDWABA#${wabaId}` });
  const found = [];
  for (const guard of guards.slice(0, MAX_WABA_CONNECTIONS)) {
    const item = await getItem(whatsappKeys(guard.companyId, guard.whatsappId));
    if (reachesCloud(item) && item.wabaId === wabaId)
      found.push({ whatsapp: toWhatsapp(item), secrets: item as CloudSecrets });
  }
  return found;
}
/** one business account behind more connections than this is no use of ours: the rest are not read */
const MAX_WABA_CONNECTIONS = 25;

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

/** The stored hash of the connection's API token (to move or drop its guard). */
export async function storedTokenHash(companyId: number, id: number): Promise<string | undefined> {
  return (await getItem<{ tokenHash?: string }>(whatsappKeys(companyId, id)))?.tokenHash;
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

/** The connection an external API token belongs to (one GetItem on the guard, one on the item), by hash. */
export async function findWhatsappByToken(token: string): Promise<Whatsapp | undefined> {
  if (!token) return undefined;
  const tokenHash = hashToken(token);
  const guard = await getItem<{ companyId: number; whatsappId: number }>(tokenGuardKeys(tokenHash));
  if (!guard) return undefined;
  const item = await getItem(whatsappKeys(guard.companyId, guard.whatsappId));
  // A stale guard (token changed in between) never authenticates. Connections saved before tokens
  // were hashed still hold the plain token: it is compared by its hash until the token is rotated.
  const stored = item?.tokenHash ?? (typeof item?.token === 'string' && item.token ? hashToken(item.token) : undefined);
  return item && stored === tokenHash ? toWhatsapp(item) : undefined;
}
