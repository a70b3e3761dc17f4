import { randomBytes, randomUUID } from 'node:crypto';
import {
  QueueIntegrationBody,
  parseServiceAccount,
  type QueueIntegration,
  type QueueIntegrationUpdateBody,
  type TestSessionBody,
  type TestSessionResponse,
} from '#shared/schemas/integrations';
import { MASKED_SECRET } from '#shared/schemas/prompts';
import { PAGE_SIZE } from '#shared/constants';
import type { z } from 'zod';
import { recordAudit } from '../audit/record';
import { AppError } from '../errors';
import { deleteItem, putItem, query } from '../db';
import { decodeCursor, page } from '../cursor';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { openSecret, sealSecret } from '../secrets';
import { publish } from '../realtime';
import { unlinkQueues } from '../queues/service';
import { ProviderError } from './call';
import { detectIntent } from './dialogflow';
import {
  INTEGRATION_PREFIX,
  getStoredIntegration,
  integrationItem,
  integrationKeys,
  toStoredIntegration,
  type StoredIntegration,
} from './repo';

type Fields = z.output<typeof QueueIntegrationBody>;

const newSecret = () => randomBytes(24).toString('base64url');

/** The credentials with the private key replaced by the mask: what answers show. */
function maskJson(jsonContent: string): string {
  const account = jsonContent ? (JSON.parse(jsonContent) as Record<string, unknown>) : undefined;
  return account ? JSON.stringify({ ...account, private_key: MASKED_SECRET }, null, 2) : '';
}

/** A jsonContent sent back with the masked key takes the stored key (the edit dialog round trip). */
function unmaskJson(sent: string, stored: string): string {
  if (!sent.includes(MASKED_SECRET) || !stored) return sent;
  const account = parseServiceAccount(sent);
  const storedAccount = parseServiceAccount(stored);
  if (!account || !storedAccount || account.private_key !== MASKED_SECRET) return sent;
  return JSON.stringify({ ...(JSON.parse(sent) as object), private_key: storedAccount.private_key });
}

async function openJson(stored: StoredIntegration) {
  return stored.jsonContentSealed ? openSecret(stored.jsonContentSealed) : '';
}

/** What the API shows: the service account's key masked; the webhook secret only `withSecret` (admins). */
async function present(stored: StoredIntegration, opts: { withSecret?: boolean } = { withSecret: true }) {
  const { jsonContentSealed: _s, webhookSecret, ...rest } = stored;
  const jsonContent = maskJson(await openJson(stored));
  return { ...rest, webhookSecret: opts.withSecret ? webhookSecret : '', jsonContent } satisfies QueueIntegration;
}

/** The live-list event goes to every user of the company: without the signing secret, which admins read by GET. */
async function publishIntegration(action: 'create' | 'update', integration: QueueIntegration) {
  const { webhookSecret: _secret, ...shown } = integration;
  await publish(integration.companyId, 'queueIntegration', {
    action,
    queueIntegration: shown,
    integrationId: integration.id,
  });
}

/** Validated fields to stored ones: projectName = name for n8n, webhook and typebot; the key sealed. */
async function toStoredFields(fields: Fields) {
  const account = fields.type === 'dialogflow' ? parseServiceAccount(fields.jsonContent) : undefined;
  const projectName =
    fields.type === 'dialogflow' ? fields.projectName || account?.project_id || fields.name : fields.name;
  const { jsonContent, ...rest } = fields;
  return {
    ...rest,
    projectName,
    language: fields.type === 'dialogflow' ? fields.language || 'pt-BR' : (fields.language ?? ''),
    jsonContentSealed: fields.type === 'dialogflow' && jsonContent ? await sealSecret(jsonContent) : '',
  };
}

/** Who saves an integration, for the audit trail: the user and the client's address (clientAddress). */
export interface Actor {
  actorId: number | null;
  address?: string | null;
}

/** Where an integration sends the company's data is audited whenever it changes (set, edited or cleared). */
async function auditUrl(stored: StoredIntegration, from: string, actor?: Actor) {
  if (stored.urlN8N === from) return;
  await recordAudit({
    companyId: stored.companyId,
    action: 'integration.url_changed',
    actorId: actor?.actorId ?? null,
    address: actor?.address ?? null,
    target: { type: 'queueIntegration', id: stored.id, name: stored.name },
    changes: { url: { from, to: stored.urlN8N } },
  });
}

function validationError(error: z.ZodError) {
  return new AppError(
    'ERR_VALIDATION',
    400,
    error.issues.map((i) => ({ path: i.path, message: i.message })),
  );
}

export async function createIntegration(companyId: number, fields: Fields, actor?: Actor): Promise<QueueIntegration> {
  const now = nowIso();
  const stored: StoredIntegration = {
    ...(await toStoredFields(fields)),
    id: await nextId(companyScope(companyId), 'queueIntegration'),
    companyId,
    webhookSecret: newSecret(),
    createdAt: now,
    updatedAt: now,
  };
  await putItem(integrationItem(stored), { ifNotExists: true });
  await auditUrl(stored, '', actor);
  const integration = await present(stored);
  await publishIntegration('create', integration);
  return integration;
}

export async function requireStoredIntegration(companyId: number, id: number): Promise<StoredIntegration> {
  const stored = await getStoredIntegration(companyId, id);
  if (!stored) throw new AppError('ERR_NOT_FOUND');
  return stored;
}

export async function getIntegration(companyId: number, id: number, opts?: { withSecret?: boolean }) {
  return present(await requireStoredIntegration(companyId, id), opts);
}

/** PUT: the stored fields fill what is not sent, then the type rules of a new one apply. */
export async function updateIntegration(
  companyId: number,
  id: number,
  body: z.output<typeof QueueIntegrationUpdateBody>,
  actor?: Actor,
): Promise<QueueIntegration> {
  const before = await requireStoredIntegration(companyId, id);
  const storedJson = await openJson(before);
  const { rotateSecret, ...changes } = body;
  const sent = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const merged = QueueIntegrationBody.safeParse({
    ...before,
    jsonContent: storedJson,
    ...sent,
    ...(typeof sent.jsonContent === 'string' ? { jsonContent: unmaskJson(sent.jsonContent, storedJson) } : {}),
  });
  if (!merged.success) throw validationError(merged.error);
  const after: StoredIntegration = {
    ...before,
    ...(await toStoredFields(merged.data)),
    webhookSecret: rotateSecret ? newSecret() : before.webhookSecret,
    updatedAt: nowIso(),
  };
  await putItem(integrationItem(after));
  await auditUrl(after, before.urlN8N, actor);
  const integration = await present(after);
  await publishIntegration('update', integration);
  return integration;
}

/**
 * DELETE /queueIntegration/{id}: the queues that hand tickets to it first stop naming it (the spec has
 * no in-use error: they simply have no integration any more), then it goes; a failure in between
 * leaves it in place for a retry. Tickets it was serving hand over to people on their next message.
 */
export async function deleteIntegration(companyId: number, id: number) {
  await requireStoredIntegration(companyId, id);
  await unlinkQueues(companyId, 'integrationId', id);
  await deleteItem(integrationKeys(companyId, id));
  await publish(companyId, 'queueIntegration', { action: 'delete', integrationId: id });
  return { message: 'Integration deleted' };
}

/** GET /queueIntegration: search by name (case-insensitive), cursor paging; one Query on the `QINT#` range. */
export async function listIntegrations(
  companyId: number,
  f: { searchParam?: string; cursor?: string; limit?: number },
  opts?: { withSecret?: boolean },
) {
  const term = f.searchParam?.trim().toLowerCase();
  const where = { pk: `C#${companyId}`, sk: { beginsWith: INTEGRATION_PREFIX } };
  const out = await query({
    ...where,
    limit: f.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, f.cursor, where),
    ...(term ? { filter: 'contains(#n, :q)', filterNames: { '#n': 'nameLower' }, filterValues: { ':q': term } } : {}),
  });
  const items = await Promise.all(out.items.map((i) => present(toStoredIntegration(i), opts)));
  const paged = await page(companyId, items, out.lastKey, where);
  return { queueIntegrations: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

/** An integration with its credentials opened, for the bot runner only. */
export async function integrationForRun(companyId: number, id: number) {
  const stored = await getStoredIntegration(companyId, id);
  if (!stored) return undefined;
  return { ...stored, jsonContent: await openJson(stored) };
}

/**
 * POST /queueIntegration/testSession: one detect-intent call with the dialog's credentials (a masked
 * key with the integration's `id` uses the stored key), answered with the fulfillment text.
 */
export async function testSession(
  companyId: number,
  body: z.output<typeof TestSessionBody>,
): Promise<TestSessionResponse> {
  let jsonContent = body.jsonContent;
  if (body.id) {
    const stored = await requireStoredIntegration(companyId, body.id);
    jsonContent = unmaskJson(jsonContent, await openJson(stored));
  }
  const account = parseServiceAccount(jsonContent);
  if (!account || account.private_key === MASKED_SECRET)
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['jsonContent'], message: 'invalid' }]);
  const projectId = body.projectName || account.project_id;
  if (!projectId) throw new AppError('ERR_VALIDATION', 400, [{ path: ['projectName'], message: 'required' }]);
  try {
    const out = await detectIntent(account, projectId, `test-${randomUUID()}`, body.text ?? 'Olá', body.language);
    return { answer: out.answer, intent: out.intent };
  } catch (err) {
    if (err instanceof ProviderError) throw new AppError('ERR_INTEGRATION_PROVIDER', 502, { reason: err.message });
    throw err;
  }
}
