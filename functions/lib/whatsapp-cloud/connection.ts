import { createHash, randomBytes } from 'node:crypto';
import { isCloudProvider, type ConnectionStatus } from '#shared/constants';
import { isMaskedSecret } from '#shared/schemas/prompts';
import type { CloudStatusReason, Whatsapp, WhatsappBody } from '#shared/schemas/whatsapp';
import { AppError } from '../errors';
import { log } from '../log';
import { openSecret, sealSecret } from '../secrets';
import { deleteTx, putItem, putTx, type TransactItem } from '../db';
import { dueShardPk } from '../due';
import {
  cloudNumberKeys,
  storedCloudFields,
  storedCloudSecrets,
  verifyTokenKeys,
  wabaGuardKeys,
} from '../whatsapp/repo';
import { GraphError, graphClient, isTokenError, type GraphClient } from './graph';
import { messagingLimitOf } from './mapping';

/**
 * A Cloud API connection's own rules: its credentials (sealed), what it cannot do (no runner: no QR
 * code, pairing, session restart, number checks, address book, calls or groups), and what
 * "connected" means for it (the token works and the Graph API reports the number usable).
 */

/** A call a Cloud API number cannot serve. */
export function assertWebSession(w: Pick<Whatsapp, 'provider'>) {
  if (isCloudProvider(w.provider)) throw new AppError('ERR_NOT_SUPPORTED_BY_CLOUD');
}

export const hashVerifyToken = (token: string) => createHash('sha256').update(token).digest('hex');
const hint = (secret: string) => secret.slice(-4);
/** A secret given in a body: empty, absent or still the mask the API showed keeps the stored one. */
const given = (value: string | undefined) => (value && !isMaskedSecret(value) ? value : undefined);
const invalid = (path: string) => new AppError('ERR_VALIDATION', 400, [{ path: [path], message: 'invalid' }]);

/** The stored fields of a new Cloud API connection: all four credentials required, the secrets sealed. */
export async function newCloudFields(body: WhatsappBody) {
  for (const field of ['phoneNumberId', 'wabaId', 'accessToken', 'appSecret'] as const)
    if (!given(body[field])) throw new AppError('ERR_VALIDATION', 400, [{ path: [field], message: 'required' }]);
  const verifyToken = body.verifyToken || randomBytes(24).toString('base64url');
  return {
    phoneNumberId: body.phoneNumberId!,
    wabaId: body.wabaId!,
    verifyToken,
    verifyTokenHash: hashVerifyToken(verifyToken),
    accessTokenSealed: await sealSecret(body.accessToken!),
    accessTokenHint: hint(body.accessToken!),
    appSecretSealed: await sealSecret(body.appSecret!),
    appSecretHint: hint(body.appSecret!),
  };
}

/**
 * The three guards of a connection's Cloud API number, each with the error its conflict is: the
 * number (one connection per phone-number id, platform-wide: its webhooks go there), the verify
 * token (Meta's verification) and the business account (its template webhooks find it).
 */
export function cloudGuardTxs(
  companyId: number,
  whatsappId: number,
  fields: { phoneNumberId: string; verifyTokenHash: string; wabaId: string },
): [TransactItem, AppError][] {
  const owner = { companyId, whatsappId };
  return [
    [
      putTx({ ...cloudNumberKeys(fields.phoneNumberId), ...owner }, true),
      new AppError('ERR_CLOUD_NUMBER_IN_USE', 409, [{ path: ['phoneNumberId'], message: 'duplicated' }]),
    ],
    [
      putTx({ ...verifyTokenKeys(fields.verifyTokenHash), ...owner, verifyTokenHash: fields.verifyTokenHash }, true),
      new AppError('ERR_DUPLICATED', 409, [{ path: ['verifyToken'], message: 'duplicated' }]),
    ],
    [putTx({ ...wabaGuardKeys(fields.wabaId, companyId, whatsappId), ...owner }), new AppError('ERR_CONFLICT')],
  ];
}

/** The guards an edit of the credentials moves: a new verify token's, a new business account's. */
export async function movedCloudGuards(
  companyId: number,
  whatsappId: number,
  current: { wabaId?: string },
  set: { verifyTokenHash?: unknown; wabaId?: unknown },
): Promise<TransactItem[]> {
  const items: TransactItem[] = [];
  if (set.verifyTokenHash) {
    const hash = set.verifyTokenHash as string;
    const stored = await storedCloudFields(companyId, whatsappId);
    if (stored?.verifyTokenHash) items.push(deleteTx(verifyTokenKeys(stored.verifyTokenHash)));
    items.push(putTx({ ...verifyTokenKeys(hash), companyId, whatsappId, verifyTokenHash: hash }, true));
  }
  if (set.wabaId && set.wabaId !== current.wabaId) {
    if (current.wabaId) items.push(deleteTx(wabaGuardKeys(current.wabaId, companyId, whatsappId)));
    items.push(putTx({ ...wabaGuardKeys(set.wabaId as string, companyId, whatsappId), companyId, whatsappId }));
  }
  return items;
}

/** The guards that go with a connection's Cloud API number (deleted, or its transport detached). */
export async function droppedCloudGuards(
  companyId: number,
  whatsappId: number,
  wabaId: string | undefined,
): Promise<TransactItem[]> {
  const stored = await storedCloudFields(companyId, whatsappId);
  return [
    ...(stored?.phoneNumberId ? [deleteTx(cloudNumberKeys(stored.phoneNumberId))] : []),
    ...(stored?.verifyTokenHash ? [deleteTx(verifyTokenKeys(stored.verifyTokenHash))] : []),
    ...(wabaId ? [deleteTx(wabaGuardKeys(wabaId, companyId, whatsappId))] : []),
  ];
}

/** What an edit of a Cloud API connection can change of its credentials (the audit trail names them). */
export type CloudCredential = 'wabaId' | 'accessToken' | 'appSecret' | 'verifyToken';

/**
 * What an edit changes on a Cloud API connection: new secrets sealed, a new verify token (its
 * guard moves), and which credentials that is (`changed`: a secret given again, not its mask,
 * counts whatever its value). The provider and the phone-number id are fixed: another number is
 * another connection.
 */
export async function cloudUpdateFields(current: Whatsapp, body: Partial<WhatsappBody>) {
  if (body.provider && (body.provider === 'cloud') !== isCloudProvider(current.provider)) throw invalid('provider');
  if (!isCloudProvider(current.provider)) {
    for (const field of ['phoneNumberId', 'wabaId', 'accessToken', 'appSecret', 'verifyToken'] as const)
      if (body[field]) throw invalid(field);
    return { set: {}, changed: [] as CloudCredential[] };
  }
  if (body.phoneNumberId && body.phoneNumberId !== current.phoneNumberId) throw invalid('phoneNumberId');
  const set: Record<string, unknown> = {};
  if (body.wabaId) set.wabaId = body.wabaId;
  const accessToken = given(body.accessToken);
  if (accessToken)
    Object.assign(set, { accessTokenSealed: await sealSecret(accessToken), accessTokenHint: hint(accessToken) });
  const appSecret = given(body.appSecret);
  if (appSecret) Object.assign(set, { appSecretSealed: await sealSecret(appSecret), appSecretHint: hint(appSecret) });
  if (body.verifyToken && body.verifyToken !== current.verifyToken)
    Object.assign(set, { verifyToken: body.verifyToken, verifyTokenHash: hashVerifyToken(body.verifyToken) });
  const changed: CloudCredential[] = [];
  if (body.wabaId && body.wabaId !== current.wabaId) changed.push('wabaId');
  if (accessToken) changed.push('accessToken');
  if (appSecret) changed.push('appSecret');
  if (set.verifyToken) changed.push('verifyToken');
  return { set, changed };
}

/** The Graph API client of a stored Cloud API connection (its access token opened). */
export async function cloudClientFor(companyId: number, whatsappId: number): Promise<GraphClient> {
  const sealed = (await storedCloudSecrets(companyId, whatsappId))?.accessTokenSealed;
  if (!sealed) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  return graphClient(await openSecret(sealed));
}

/**
 * The status re-check of Cloud API connections (timer `cloud-status`): one platform-wide wake-up
 * per connection, `CLOUDCHECK#<shard>` / `<dueAt>#<cid>#<id>`, armed when the connection is created
 * and again by the timer after each check, so a token that expires or a number Meta restricts shows
 * on the connection without a send having to fail first. A deleted connection's wake-up is dropped
 * when it comes due.
 */
export const CLOUD_CHECK_PREFIX = 'CLOUDCHECK';
export const CLOUD_CHECK_SHARDS = 2;
export const CLOUD_CHECK_EVERY_MINUTES = 60;
export const cloudCheckKeys = (dueAt: string, companyId: number, whatsappId: number) => ({
  pk: dueShardPk(CLOUD_CHECK_PREFIX, (companyId + whatsappId) % CLOUD_CHECK_SHARDS),
  sk: `${dueAt}#${companyId}#${whatsappId}`,
});

export async function armCloudCheck(companyId: number, whatsappId: number, now = new Date()) {
  const dueAt = new Date(now.getTime() + CLOUD_CHECK_EVERY_MINUTES * 60_000).toISOString();
  await putItem({ ...cloudCheckKeys(dueAt, companyId, whatsappId), companyId, whatsappId, dueAt });
}

/** Graph `status` values of a number that can send and receive (FLAGGED and RATE_LIMITED still can). */
const USABLE = new Set(['CONNECTED', 'FLAGGED', 'RATE_LIMITED']);
const RESTRICTED = new Set(['RESTRICTED', 'BANNED', 'DISABLED', 'DELETED']);

export interface CloudProbe {
  status: ConnectionStatus;
  statusReason?: CloudStatusReason;
  number?: string;
  /** the business portfolio's messaging limit (-1: unlimited), when Meta told it */
  messagingLimit?: number;
  /** the number's quality rating (GREEN, YELLOW, RED, UNKNOWN), when Meta told it */
  quality?: string;
}

/**
 * The connection's status as the Graph API sees it (`GET /{phone-number-id}`): CONNECTED when the
 * token works and the number is usable, else DISCONNECTED with the reason in plain words.
 */
export async function probeCloudNumber(client: GraphClient, phoneNumberId: string): Promise<CloudProbe> {
  try {
    const info = await client.phoneNumber(phoneNumberId);
    const number = info.display_phone_number?.replace(/\D/g, '') || undefined;
    const status = info.status?.toUpperCase() ?? '';
    const messagingLimit = messagingLimitOf(info.whatsapp_business_manager_messaging_limit);
    const quality = info.quality_rating?.toUpperCase() || undefined;
    if (USABLE.has(status)) return { status: 'CONNECTED', number, messagingLimit, quality };
    return {
      status: 'DISCONNECTED',
      statusReason: RESTRICTED.has(status) ? 'accountRestricted' : 'numberNotRegistered',
      number,
    };
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    log.warn('cloud number probe refused', { status: err.status, code: err.code });
    if (isTokenError(err)) return { status: 'DISCONNECTED', statusReason: 'tokenExpired' };
    // 100 (unknown object) and 404: the id names no number this token can reach
    if (err.status === 404 || err.code === 100 || err.code === 133010)
      return { status: 'DISCONNECTED', statusReason: 'numberNotRegistered' };
    if (err.code === 368 || err.code === 131031) return { status: 'DISCONNECTED', statusReason: 'accountRestricted' };
    return { status: 'DISCONNECTED', statusReason: 'graphUnavailable' };
  }
}
