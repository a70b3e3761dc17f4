import { randomBytes } from 'node:crypto';
import { CONNECTION_DEFAULTS, type ConnectionStatus } from '#shared/constants';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import type { ConnectionHealth, Whatsapp, WhatsappBody, WhatsappUpdateBody } from '#shared/schemas/whatsapp';
import { AppError } from '../errors';
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
 * stored); the health only with `withHealth`.
 */
export function presentWhatsapp(
  w: Whatsapp,
  opts: { withQr?: boolean; withToken?: boolean; withHealth?: boolean } = {},
): Whatsapp {
  const out: Whatsapp = { ...w, queues: w.queues ?? w.queueIds.map((id) => ({ id, name: '' })) };
  if (opts.withQr === false) delete out.qrcode;
  if (!opts.withToken) delete out.token;
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
  const items: TransactItem[] = [
    putTx({ ...whatsappKeys(companyId, id), ...stored, ...hashed }, true),
    usageTx(companyId, 'connections', plan),
    putTx({ ...tokenGuardKeys(hashed.tokenHash), companyId, whatsappId: id }, true),
    ...(isDefault ? moveDefaultTx(companyId, id, previousDefault) : []),
  ];
  await transact(items, (index) =>
    index === 1
      ? planLimitReached('connections', plan)
      : index === 2
        ? new AppError('ERR_DUPLICATED', 409, [{ path: ['token'], message: 'duplicated' }])
        : new AppError('ERR_CONFLICT'),
  );
  // A new connection starts its session at once: the QR code follows on the whatsappSession event.
  await sendSessionCommand({ type: 'start', companyId, whatsappId: id });
  await publishWhatsapp(whatsapp);
  // the one time the token is shown in full
  return whatsapp;
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
  // a new token replaces the old one (its guard moves); none or '' keeps the current one
  const { token, ...fields } = body;
  const rotated = token ? tokenFields(token) : undefined;
  const previous = rotated && (await storedTokenHash(companyId, id));
  if (rotated && previous !== rotated.tokenHash) {
    if (previous) items.push(deleteTx(tokenGuardKeys(previous)));
    items.push(putTx({ ...tokenGuardKeys(rotated.tokenHash), companyId, whatsappId: id }, true));
  }
  const set: Record<string, unknown> = { ...fields, ...rotated, queueIds, isDefault, updatedAt: nowIso() };
  items.unshift(updateTx(whatsappKeys(companyId, id), { set, condition: 'attribute_exists(pk)' }));
  await transact(items, (index) => {
    if (index === 0) return new AppError('ERR_NO_WAPP_FOUND');
    const failed = items[index]!;
    return 'Put' in failed && failed.Put && String(failed.Put.Item?.pk).startsWith('WTOKEN#')
      ? new AppError('ERR_DUPLICATED', 409, [{ path: ['token'], message: 'duplicated' }])
      : new AppError('ERR_CONFLICT');
  });
  const updated = await requireWhatsapp(companyId, id);
  if (rotated && previous !== rotated.tokenHash) {
    // the trail keeps only the tokens' last characters (masked by recordAudit), as the list shows them
    await auditBy(by, {
      action: 'connection.token_rotated',
      target: { type: 'connection', id, name: updated.name },
      changes: { token: { from: current.token || null, to: token } },
    });
  }
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
  await transact(items, () => new AppError('ERR_NO_WAPP_FOUND'));
  // Log the phone out and drop its keys: a deleted connection must not keep receiving messages.
  await sendSessionCommand({ type: 'disconnect', companyId, whatsappId: id });
  await publish(companyId, 'whatsapp', { action: 'delete', whatsappId: id });
}

async function setStatus(companyId: number, id: number, status: ConnectionStatus, extra: Record<string, unknown> = {}) {
  const item = await updateItem(whatsappKeys(companyId, id), {
    set: { status, updatedAt: nowIso(), ...extra },
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
  await requireWhatsapp(companyId, id);
  const w = await setStatus(companyId, id, 'OPENING', { qrcode: '' });
  await sendSessionCommand({ type: 'start', companyId, whatsappId: id });
  return w;
}

/** `PUT /whatsappsession/{id}`: drop the stored keys and pair again with a new QR code. */
export async function requestNewQr(companyId: number, id: number) {
  await requireWhatsapp(companyId, id);
  const w = await setStatus(companyId, id, 'OPENING', { qrcode: '', retries: 0 });
  await sendSessionCommand({ type: 'newQr', companyId, whatsappId: id });
  return w;
}

/** `DELETE /whatsappsession/{id}`: disconnect and log the phone out. */
export async function disconnectSession(companyId: number, id: number) {
  await requireWhatsapp(companyId, id);
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
