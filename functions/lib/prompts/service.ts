import { MASKED_SECRET, isMaskedSecret, type Prompt, type PromptBody } from '#shared/schemas/prompts';
import type { z } from 'zod';
import { AppError } from '../errors';
import { deleteItem, putItem, stripKeys, updateItem } from '../db';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { openSecret, sealSecret } from '../secrets';
import { publish } from '../realtime';
import { getQueues } from '../queues/repo';
import { unlinkQueues } from '../queues/service';
import { unlinkPromptFromConnections } from '../whatsapp/service';
import { getStoredPrompt, listStoredPrompts, promptItem, promptKeys, type StoredPrompt } from './repo';

type CreateInput = z.output<typeof PromptBody>;
type UpdateInput = Partial<Omit<CreateInput, 'apiKey'>> & { apiKey?: string };

const mask = (last4: string) => `${MASKED_SECRET}${last4}`;

/** Prompts as answers show them: the queue's name and colour read at once, the apiKey masked. */
async function present(companyId: number, stored: StoredPrompt[]): Promise<Prompt[]> {
  const queues = new Map(
    (await getQueues(companyId, [...new Set(stored.map((p) => p.queueId))])).map((q) => [q.id, q]),
  );
  return stored.map(({ apiKeySealed: _s, apiKeyLast4, ...p }) => {
    const queue = queues.get(p.queueId);
    return {
      ...p,
      apiKey: mask(apiKeyLast4),
      queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
    };
  });
}

/** The queue a prompt transfers to must be one of the company's queues. */
async function assertQueue(companyId: number, queueId: number) {
  const [queue] = await getQueues(companyId, [queueId]);
  if (!queue) throw new AppError('ERR_VALIDATION', 400, [{ path: ['queueId'], message: 'invalid' }]);
}

export async function listPrompts(companyId: number): Promise<{ prompts: Prompt[] }> {
  const stored = (await listStoredPrompts(companyId)).sort((a, b) => a.name.localeCompare(b.name));
  return { prompts: await present(companyId, stored) };
}

export async function requireStoredPrompt(companyId: number, id: number): Promise<StoredPrompt> {
  const stored = await getStoredPrompt(companyId, id);
  if (!stored) throw new AppError('ERR_NOT_FOUND');
  return stored;
}

export async function getPrompt(companyId: number, id: number): Promise<Prompt> {
  const [prompt] = await present(companyId, [await requireStoredPrompt(companyId, id)]);
  return prompt!;
}

export async function createPrompt(companyId: number, body: CreateInput): Promise<Prompt> {
  if (isMaskedSecret(body.apiKey))
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['apiKey'], message: 'invalid' }]);
  await assertQueue(companyId, body.queueId);
  const now = nowIso();
  const { apiKey, ...fields } = body;
  const stored: StoredPrompt = {
    ...fields,
    id: await nextId(companyScope(companyId), 'prompt'),
    companyId,
    apiKeySealed: await sealSecret(apiKey),
    apiKeyLast4: apiKey.slice(-4),
    createdAt: now,
    updatedAt: now,
  };
  await putItem(promptItem(stored), { ifNotExists: true });
  const prompt = (await present(companyId, [stored]))[0]!;
  await publish(companyId, 'prompt', { action: 'create', prompt, promptId: prompt.id });
  return prompt;
}

/** PUT /prompt/{id}: an omitted, empty or still-masked apiKey keeps the stored key. */
export async function updatePrompt(companyId: number, id: number, body: UpdateInput): Promise<Prompt> {
  const before = await requireStoredPrompt(companyId, id);
  if (body.queueId !== undefined && body.queueId !== before.queueId) await assertQueue(companyId, body.queueId);
  const { apiKey, ...fields } = body;
  const set: Record<string, unknown> = { ...stripUndefined(fields), updatedAt: nowIso() };
  if (apiKey && !isMaskedSecret(apiKey)) {
    set.apiKeySealed = await sealSecret(apiKey);
    set.apiKeyLast4 = apiKey.slice(-4);
  }
  const after = await updateItem(promptKeys(companyId, id), { set, condition: 'attribute_exists(pk)' });
  if (!after) throw new AppError('ERR_NOT_FOUND');
  const prompt = (await present(companyId, [stripKeys(after) as StoredPrompt]))[0]!;
  await publish(companyId, 'prompt', { action: 'update', prompt, promptId: id });
  return prompt;
}

/**
 * DELETE /prompt/{id}: the queues and connections that answer with it first stop naming it (the spec
 * has no in-use error: they simply have no prompt any more), then it goes. A failure in between
 * leaves the prompt in place for a retry, never a link to nothing. Tickets it was answering hand
 * over to people on their next message (see runAssistant).
 */
export async function deletePrompt(companyId: number, id: number): Promise<{ message: string }> {
  await requireStoredPrompt(companyId, id);
  await unlinkQueues(companyId, 'promptId', id);
  await unlinkPromptFromConnections(companyId, id);
  await deleteItem(promptKeys(companyId, id));
  await publish(companyId, 'prompt', { action: 'delete', promptId: id });
  return { message: 'Prompt deleted' };
}

/** A prompt with its apiKey opened, for the responder only (never for an answer). */
export async function promptForRun(companyId: number, id: number) {
  const stored = await getStoredPrompt(companyId, id);
  if (!stored) return undefined;
  return { ...stored, apiKey: await openSecret(stored.apiKeySealed) };
}

const stripUndefined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
