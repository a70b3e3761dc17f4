import { randomBytes } from 'node:crypto';
import { CONNECTION_DEFAULTS, isCloudProvider, type ConnectionStatus } from '#shared/constants';
import { hasCloudTransport } from '#shared/transports';
import type { InboundEvent, SessionRestriction } from '#shared/whatsapp-protocol';
import type { ConnectionHealth, Whatsapp, WhatsappBody, WhatsappUpdateBody } from '#shared/schemas/whatsapp';
import { AppError } from '../errors';
import { dropTemplates, syncTemplatesQuietly } from '../whatsapp-cloud/templates';
import { alertOnHealthChange } from '../whatsapp-cloud/quality';
import { notifyConnectionAlert } from '../push/notify';
import { transact, putTx, updateTx, deleteTx, updateItem, type TransactItem } from '../db';
import { nextId, counterTx, companyScope } from '../ids';
import { nowIso } from '../keys';
import { can, type Permission } from '#shared/permissions';
import { publish } from '../realtime';
import { companyPlan } from '../accounts/companies';
import { planLimitReached, usageTx } from '../accounts/plan-limits';
import { getQueues } from '../queues/repo';
import {
  CONNECTIONS_USAGE,
  defaultGuardKeys,
  defaultWhatsappId,
  getWhatsapp,
  listWhatsapps,
  requireWhatsapp,
  storedTokenHash,
  tokenFields,
  tokenGuardKeys,
  whatsappKeys,
  toWhatsapp,
} from './repo';
import { sendSessionCommand } from './commands';
import { resumeNumberChecks } from '../contact-lists/checks';
import { assertOwnAssistants } from '../integrations/links';
import { auditBy, type AuditActor } from '../audit/actor';
import {
  armCloudCheck,
  assertWebSession,
  cloudClientFor,
  cloudGuardTxs,
  droppedCloudGuards,
  movedCloudGuards,
  cloudUpdateFields,
  newCloudFields,
  probeCloudNumber,
} from '../whatsapp-cloud/connection';

const newToken = () => randomBytes(32).toString('base64url');

/**
 * The QR code pairs a phone with the company's line: only who may press the session buttons sees
 * it, and the session's health (which tells when the phone is used) goes to the same people.
 */
const QR_PERMISSION: Permission = 'connections-page:actionButtons';

/** More than one queue needs a greeting: it carries the queue menu (ERR_WAPP_GREETING_REQUIRED). */
function assertGreeting(queueIds: number[], greetingMessage: string) {
  if (queueIds.length > 1 && !greetingMessage.trim()) throw new AppError('ERR_WAPP_GREETING_REQUIRED');
}

/**
 * The public shape: `session=0` drops the QR code; only admins see the API token (masked once
 * stored) and a Cloud API connection's credentials (always masked) and verify token; the health
 * only with `withHealth`.
 */
export function presentWhatsapp(
  w: Whatsapp,
  opts: { withQr?: boolean; withToken?: boolean; withHealth?: boolean } = {},
): Whatsapp {
  const out: Whatsapp = { ...w, queues: w.queues ?? w.queueIds.map((id) => ({ id, name: '' })) };
  if (opts.withQr === false) delete out.qrcode;
  if (!opts.withToken) {
    delete out.token;
    // a Cloud API connection's credentials (masked) and verify token: only for who may edit it
    delete out.verifyToken;
    delete out.accessToken;
    delete out.appSecret;
  }
  if (!opts.withHealth) delete out.health;
  return out;
}

/** A connection as a user of this profile may see it: the QR code and the token only with their permissions. */
export function presentFor(profile: string, w: Whatsapp, opts: { withQr?: boolean } = {}): Whatsapp {
  return presentWhatsapp(w, {
    withQr: opts.withQr !== false && can(profile, QR_PERMISSION),
    withToken: can(profile, 'connections-page:editOrDeleteConnection'),
    withHealth: can(profile, QR_PERMISSION),
  });
}

/** Fills `queues` (id, name, color) from the connection's queueIds, in the company's queue order. */
export async function withQueues(companyId: number, list: Whatsapp[]): Promise<Whatsapp[]> {
  const ids = [...new Set(list.flatMap((w) => w.queueIds ?? []))];
  const queues = await getQueues(companyId, ids);
  return list.map((w) => ({
    ...w,
    queues: queues.filter((q) => w.queueIds.includes(q.id)).map((q) => ({ id: q.id, name: q.name, color: q.color })),
  }));
}

/** The `whatsapp` event carries the list row as GET /whatsapp shows it (queues named, no QR, token or health). */
export async function publishWhatsapp(w: Whatsapp) {
  const [named] = await withQueues(w.companyId, [w]);
  await publish(w.companyId, 'whatsapp', { action: 'update', whatsapp: presentWhatsapp(named!, { withQr: false }) });
}

/** The session status to everyone; the QR code and the health only to holders of QR_PERMISSION. */
async function publishSession(w: Whatsapp) {
  const session = { id: w.id, status: w.status, qrcode: w.qrcode ?? '', retries: w.retries, updatedAt: w.updatedAt };
  await publish(
    w.companyId,
    'whatsappSession',
    { action: 'update', session: { ...session, ...(w.health && { health: w.health }) } },
    { kind: 'permission', permission: QR_PERMISSION },
  );
  await publish(
    w.companyId,
    'whatsappSession',
    { action: 'update', session: { ...session, qrcode: '' } },
    { kind: 'permission', permission: QR_PERMISSION, without: true },
  );
}

/** A `health` report from the runner: stored on the connection, shown live to QR_PERMISSION holders. */
export async function applyHealthEvent(ev: { companyId: number; whatsappId: number; health: ConnectionHealth }) {
  const item = await updateItem(whatsappKeys(ev.companyId, ev.whatsappId), {
    set: { health: ev.health },
    condition: 'attribute_exists(pk)',
  });
  // a deleted connection's last report has nowhere to go
  if (!item) return;
  await publish(
    ev.companyId,
    'whatsappSession',
    { action: 'update', session: { id: ev.whatsappId, health: ev.health } },
    { kind: 'permission', permission: QR_PERMISSION },
  );
}

/**
 * WhatsApp's warning before a ban (a `restriction` report of the runner): the reach-out lock and its
 * end, or its lifting, and the cycle's new-chat quota, kept on the connection and shown live. A lock
 * newly set tells the company's admins (Web Push `connectionAlert`). Answers whether the report
 * lifted a limit before its stated end (the lock lifted, or a new cycle's quota with chats left):
 * then what waited for it goes on now.
 */
export async function applyRestriction(ev: { companyId: number; whatsappId: number } & SessionRestriction) {
  const before = await getWhatsapp(ev.companyId, ev.whatsappId);
  if (!before) return { lifted: false };
  const set: Record<string, unknown> = { updatedAt: nowIso() };
  const remove: string[] = [];
  const lock = ev.reachoutLock;
  if (lock?.active) {
    // WhatsApp Web's own default when WhatsApp gives no end: a minute
    set.reachoutLockedUntil = lock.until ?? new Date(Date.now() + 60_000).toISOString();
    if (lock.type) set.reachoutType = lock.type;
    else remove.push('reachoutType');
  } else if (lock) remove.push('reachoutLockedUntil', 'reachoutType');
  if (ev.newChatQuota) set.newChatQuota = ev.newChatQuota;
  const item = await updateItem(whatsappKeys(ev.companyId, ev.whatsappId), {
    set,
    ...(remove.length ? { remove } : {}),
    condition: 'attribute_exists(pk)',
  });
  if (!item) return { lifted: false };
  await publishWhatsapp(toWhatsapp(item));
  const wasLocked = Boolean(before.reachoutLockedUntil && Date.parse(before.reachoutLockedUntil) > Date.now());
  if (lock?.active && !wasLocked)
    await notifyConnectionAlert({
      companyId: ev.companyId,
      whatsappId: ev.whatsappId,
      connectionName: before.name,
      reason: 'reachoutLocked',
      until: set.reachoutLockedUntil as string,
    });
  const quota = ev.newChatQuota;
  return { lifted: (lock !== undefined && !lock.active) || (quota !== undefined && quota.used < quota.total) };
}

/** Moves the default flag to `id` (guard item and both connection items in one transaction). */
function moveDefaultTx(companyId: number, id: number, previous: number | undefined): TransactItem[] {
  if (previous === undefined) return [putTx({ ...defaultGuardKeys(companyId), companyId, whatsappId: id }, true)];
  if (previous === id) return [];
  return [
    updateTx(defaultGuardKeys(companyId), {
      set: { whatsappId: id },
      condition: '#w = :prev',
      conditionNames: { '#w': 'whatsappId' },
      conditionValues: { ':prev': previous },
    }),
    updateTx(whatsappKeys(companyId, previous), {
      set: { isDefault: false, updatedAt: nowIso() },
      condition: 'attribute_exists(pk)',
    }),
  ];
}

/** Queues named by the form must be this company's (another company's queue id is refused). */
async function assertOwnQueues(companyId: number, ids: (number | null | undefined)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  const found = new Set((await getQueues(companyId, wanted)).map((q) => q.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw new AppError('ERR_VALIDATION', 400, [{ path: ['queueIds'], message: 'invalid' }]);
}

export async function createWhatsapp(companyId: number, body: WhatsappBody): Promise<Whatsapp> {
  const queueIds = [...new Set(body.queueIds ?? [])];
  assertGreeting(queueIds, body.greetingMessage ?? '');
  await assertOwnQueues(companyId, [...queueIds, body.transferQueueId]);
  await assertOwnAssistants(companyId, { promptId: body.promptId });
  const plan = await companyPlan(companyId);
  const id = await nextId(companyScope(companyId), 'whatsapp');
  const previousDefault = await defaultWhatsappId(companyId);
  // The first connection is the default whatever the form says; later ones only when asked.
  const isDefault = previousDefault === undefined || body.isDefault === true;
  const now = nowIso();
  const token = body.token || newToken();
  const cloud = isCloudProvider(body.provider) ? await newCloudFields(body) : undefined;
  const whatsapp: Whatsapp = {
    id,
    companyId,
    name: body.name,
    status: 'OPENING',
    isDefault,
    qrcode: '',
    retries: 0,
    createdAt: now,
    updatedAt: now,
    greetingMessage: body.greetingMessage ?? '',
    complationMessage: body.complationMessage ?? '',
    outOfHoursMessage: body.outOfHoursMessage ?? '',
    ratingMessage: body.ratingMessage ?? '',
    token,
    provider: body.provider || CONNECTION_DEFAULTS.provider,
    expiresInactiveMessage: body.expiresInactiveMessage ?? '',
    expiresTicket: body.expiresTicket ?? CONNECTION_DEFAULTS.expiresTicket,
    timeUseBotQueues: body.timeUseBotQueues ?? CONNECTION_DEFAULTS.timeUseBotQueues,
    maxUseBotQueues: body.maxUseBotQueues ?? CONNECTION_DEFAULTS.maxUseBotQueues,
    timeToTransfer: body.timeToTransfer ?? null,
    transferQueueId: body.transferQueueId ?? null,
    promptId: body.promptId ?? null,
    queueIds,
  };
  const { token: _plain, ...stored } = whatsapp;
  const hashed = tokenFields(token);
  const item = { ...whatsappKeys(companyId, id), ...stored, ...hashed, ...cloud };
  const duplicated = (field: string) => new AppError('ERR_DUPLICATED', 409, [{ path: [field], message: 'duplicated' }]);
  const guarded: [TransactItem, AppError][] = [
    [putTx(item, true), new AppError('ERR_CONFLICT')],
    [usageTx(companyId, 'connections', plan), planLimitReached('connections', plan)],
    [putTx({ ...tokenGuardKeys(hashed.tokenHash), companyId, whatsappId: id }, true), duplicated('token')],
    ...(cloud ? cloudGuardTxs(companyId, id, cloud) : []),
    ...(isDefault ? moveDefaultTx(companyId, id, previousDefault) : []).map(
      (tx) => [tx, new AppError('ERR_CONFLICT')] as [TransactItem, AppError],
    ),
  ];
  await transact(
    guarded.map(([tx]) => tx),
    (index) => guarded[index]?.[1] ?? new AppError('ERR_CONFLICT'),
  );
  let created = toWhatsapp(item);
  if (cloud) {
    // no runner: the Graph API says whether the number is usable, now and every hour (timer `cloud-status`)
    created = (await probeCloud(companyId, id)) ?? created;
    await armCloudCheck(companyId, id);
    // the templates it may send outside the 24-hour window, read now (and hourly after)
    if (created.status === 'CONNECTED') await syncTemplatesQuietly(companyId, id);
  } else {
    // A new connection starts its session at once: the QR code follows on the whatsappSession event.
    await sendSessionCommand({ type: 'start', companyId, whatsappId: id });
    await publishWhatsapp(created);
  }
  // the one time the token is shown in full
  return { ...created, token };
}

/**
 * A Cloud API connection's status from the Graph API (`GET /{phone-number-id}`), stored with the
 * reason when it is not CONNECTED, and told to the browsers like a session's.
 */
export async function probeCloud(companyId: number, id: number) {
  const current = await requireWhatsapp(companyId, id);
  if (!isCloudProvider(current.provider) || !current.phoneNumberId) return current;
  const probe = await probeCloudNumber(await cloudClientFor(companyId, id), current.phoneNumberId);
  // a lower quality rating or messaging limit than last time tells the admins
  await alertOnHealthChange(current, { quality: probe.quality, messagingLimit: probe.messagingLimit });
  return setStatus(
    companyId,
    id,
    probe.status,
    {
      ...(probe.number ? { number: probe.number } : {}),
      ...(probe.messagingLimit !== undefined ? { cloudMessagingLimit: probe.messagingLimit } : {}),
      ...(probe.quality ? { cloudQuality: probe.quality } : {}),
    },
    {
      ...(probe.statusReason ? { set: { statusReason: probe.statusReason } } : { remove: ['statusReason'] }),
    },
  );
}

export async function updateWhatsapp(
  companyId: number,
  id: number,
  body: WhatsappUpdateBody,
  by?: AuditActor,
): Promise<Whatsapp> {
  const current = await requireWhatsapp(companyId, id);
  const queueIds = body.queueIds ? [...new Set(body.queueIds)] : current.queueIds;
  assertGreeting(queueIds, body.greetingMessage ?? current.greetingMessage);
  await assertOwnQueues(companyId, [...(body.queueIds ?? []), body.transferQueueId]);
  await assertOwnAssistants(companyId, { promptId: body.promptId });
  const previousDefault = await defaultWhatsappId(companyId);
  const items: TransactItem[] = [];
  let isDefault = current.isDefault;
  if (body.isDefault === true && !current.isDefault) {
    isDefault = true;
    items.push(...moveDefaultTx(companyId, id, previousDefault));
  } else if (body.isDefault === false && current.isDefault) {
    // Exactly one default per company: the default moves by making another connection default.
    throw new AppError('ERR_NO_OTHER_WHATSAPP');
  }
  const cloud = await cloudUpdateFields(current, body);
  items.push(...(await movedCloudGuards(companyId, id, current, cloud.set)));
  const wabaMoved = Boolean(cloud.set.wabaId && cloud.set.wabaId !== current.wabaId);
  // a new token replaces the old one (its guard moves); none or '' keeps the current one
  const {
    token,
    provider: _provider,
    phoneNumberId: _number,
    wabaId: _waba,
    accessToken: _access,
    appSecret: _secret,
    verifyToken: _verify,
    ...fields
  } = body;
  const rotated = token ? tokenFields(token) : undefined;
  const previous = rotated && (await storedTokenHash(companyId, id));
  if (rotated && previous !== rotated.tokenHash) {
    if (previous) items.push(deleteTx(tokenGuardKeys(previous)));
    items.push(putTx({ ...tokenGuardKeys(rotated.tokenHash), companyId, whatsappId: id }, true));
  }
  const set: Record<string, unknown> = {
    ...fields,
    ...rotated,
    ...cloud.set,
    queueIds,
    isDefault,
    updatedAt: nowIso(),
  };
  items.unshift(updateTx(whatsappKeys(companyId, id), { set, condition: 'attribute_exists(pk)' }));
  await transact(items, (index) => {
    if (index === 0) return new AppError('ERR_NO_WAPP_FOUND');
    const failed = items[index]!;
    const pk = 'Put' in failed && failed.Put ? String(failed.Put.Item?.pk) : '';
    if (pk.startsWith('WTOKEN#'))
      return new AppError('ERR_DUPLICATED', 409, [{ path: ['token'], message: 'duplicated' }]);
    if (pk.startsWith('WCLOUDVT#'))
      return new AppError('ERR_DUPLICATED', 409, [{ path: ['verifyToken'], message: 'duplicated' }]);
    return new AppError('ERR_CONFLICT');
  });
  // a Cloud API connection's status is asked again on every edit (new credentials, or a retry)
  const updated = isCloudProvider(current.provider)
    ? ((await probeCloud(companyId, id)) ?? (await requireWhatsapp(companyId, id)))
    : await requireWhatsapp(companyId, id);
  if (rotated && previous !== rotated.tokenHash) {
    // the trail keeps only the tokens' last characters (masked by recordAudit), as the list shows them
    await auditBy(by, {
      action: 'connection.token_rotated',
      target: { type: 'connection', id, name: updated.name },
      changes: { token: { from: current.token || null, to: token } },
    });
  }
  if (cloud.changed.length) {
    // which credentials changed, never their values (the secrets are sealed; the trail has no hint of them)
    await auditBy(by, {
      action: 'connection.credentials_changed',
      target: { type: 'connection', id, name: updated.name },
      changes: {
        changedFields: cloud.changed,
        ...(cloud.changed.includes('wabaId') && { wabaId: { from: current.wabaId ?? null, to: body.wabaId } }),
      },
    });
  }
  // another business account has other templates
  if (wabaMoved && updated.status === 'CONNECTED') await syncTemplatesQuietly(companyId, id);
  await publishWhatsapp(updated);
  if (previousDefault !== undefined && previousDefault !== id && isDefault) {
    const old = await requireWhatsapp(companyId, previousDefault).catch(() => undefined);
    if (old) await publishWhatsapp(old);
  }
  // a rotated token is shown in full this once
  return token ? { ...updated, token } : updated;
}

/**
 * A prompt is being deleted: the connections that answer with it no longer do (each cleared only
 * while it still names that prompt, so a concurrent edit wins), and lists see it.
 */
export async function unlinkPromptFromConnections(companyId: number, promptId: number) {
  for (const w of (await listWhatsapps(companyId)).filter((c) => c.promptId === promptId)) {
    const updated = await updateItem(whatsappKeys(companyId, w.id), {
      set: { promptId: null, updatedAt: nowIso() },
      condition: 'promptId = :id',
      conditionValues: { ':id': promptId },
    });
    if (updated) await publishWhatsapp(toWhatsapp(updated));
  }
}

export async function deleteWhatsapp(companyId: number, id: number) {
  const current = await requireWhatsapp(companyId, id);
  const all = await listWhatsapps(companyId);
  if (current.isDefault && all.some((w) => w.id !== id)) throw new AppError('ERR_NO_OTHER_WHATSAPP');
  const items: TransactItem[] = [
    deleteTx(whatsappKeys(companyId, id), 'attribute_exists(pk)'),
    counterTx(companyScope(companyId), CONNECTIONS_USAGE, -1),
  ];
  const tokenHash = await storedTokenHash(companyId, id);
  if (tokenHash) items.push(deleteTx(tokenGuardKeys(tokenHash)));
  if (current.isDefault) items.push(deleteTx(defaultGuardKeys(companyId)));
  const cloud = isCloudProvider(current.provider);
  // its Cloud API number (its own, or an attached transport's) takes no more webhooks and may be added again
  const reachesCloud = hasCloudTransport(current);
  if (reachesCloud) items.push(...(await droppedCloudGuards(companyId, id, current.wabaId)));
  await transact(items, () => new AppError('ERR_NO_WAPP_FOUND'));
  if (reachesCloud) await dropTemplates(companyId, id);
  // Log the phone out and drop its keys: a deleted connection must not keep receiving messages.
  if (!cloud) await sendSessionCommand({ type: 'disconnect', companyId, whatsappId: id });
  await publish(companyId, 'whatsapp', { action: 'delete', whatsappId: id });
}

async function setStatus(
  companyId: number,
  id: number,
  status: ConnectionStatus,
  extra: Record<string, unknown> = {},
  more: { set?: Record<string, unknown>; remove?: string[] } = {},
) {
  const item = await updateItem(whatsappKeys(companyId, id), {
    set: { status, updatedAt: nowIso(), ...extra, ...more.set },
    ...(more.remove ? { remove: more.remove } : {}),
    condition: 'attribute_exists(pk)',
  });
  if (!item) return undefined;
  const w = toWhatsapp(item);
  await publishSession(w);
  await publishWhatsapp(w);
  return w;
}

/** `POST /whatsappsession/{id}`: start or retry the session. */
export async function startSession(companyId: number, id: number) {
  assertWebSession(await requireWhatsapp(companyId, id));
  const w = await setStatus(companyId, id, 'OPENING', { qrcode: '' });
  await sendSessionCommand({ type: 'start', companyId, whatsappId: id });
  return w;
}

/** `PUT /whatsappsession/{id}`: drop the stored keys and pair again with a new QR code. */
export async function requestNewQr(companyId: number, id: number) {
  assertWebSession(await requireWhatsapp(companyId, id));
  const w = await setStatus(companyId, id, 'OPENING', { qrcode: '', retries: 0 });
  await sendSessionCommand({ type: 'newQr', companyId, whatsappId: id });
  return w;
}

/** `DELETE /whatsappsession/{id}`: disconnect and log the phone out. */
export async function disconnectSession(companyId: number, id: number) {
  assertWebSession(await requireWhatsapp(companyId, id));
  await sendSessionCommand({ type: 'disconnect', companyId, whatsappId: id });
}

/** A `session` event from the runner: store the status and tell the browsers. */
export async function applySessionEvent(ev: Omit<Extract<InboundEvent, { type: 'session' }>, 'type'>) {
  const w = await setStatus(ev.companyId, ev.whatsappId, ev.status, {
    qrcode: ev.qrcode ?? '',
    ...(ev.retries !== undefined ? { retries: ev.retries } : {}),
    ...(ev.number ? { number: ev.number } : {}),
  });
  // contact list numbers that waited for a connection are checked now
  if (w?.status === 'CONNECTED') await resumeNumberChecks(ev.companyId);
  return w;
}
