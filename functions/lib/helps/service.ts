import type { Help } from '#shared/schemas/billing';
import { AppError } from '../errors';
import { deleteItem, getItem, putItem, queryAll, stripKeys, updateItem } from '../db';
import { GLOBAL_SCOPE, nextId } from '../ids';
import { nowIso, pad } from '../keys';

/**
 * Helps (management.md "Help page"): platform-wide videos the super user keeps, read by every
 * signed-in user. pk `HELP`, sk `HELP#<id>`: a small partition read whole, newest first.
 */
const helpKeys = (id: number) => ({ pk: 'HELP', sk: `HELP#${pad(id)}` });

const toHelp = (item: Record<string, unknown>) => stripKeys(item) as Help;

export async function listHelps(search?: string): Promise<Help[]> {
  const items = await queryAll({ pk: 'HELP', sk: { beginsWith: 'HELP#' }, forward: false });
  const helps = items.map(toHelp);
  if (!search) return helps;
  return helps.filter((h) => `${h.title} ${h.description}`.toLowerCase().includes(search));
}

export async function createHelp(body: { title: string; description: string; video: string }): Promise<Help> {
  const now = nowIso();
  const help: Help = { id: await nextId(GLOBAL_SCOPE, 'help'), ...body, createdAt: now, updatedAt: now };
  await putItem({ ...helpKeys(help.id), ...help }, { ifNotExists: true });
  return help;
}

export async function updateHelp(id: number, body: { title?: string; description?: string; video?: string }) {
  const updated = await updateItem(helpKeys(id), {
    set: { ...body, updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });
  if (!updated) throw new AppError('ERR_NOT_FOUND');
  return toHelp(updated);
}

export async function deleteHelp(id: number) {
  if (!(await getItem(helpKeys(id)))) throw new AppError('ERR_NOT_FOUND');
  await deleteItem(helpKeys(id));
}
