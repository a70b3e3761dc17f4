import { batchGet, type Key } from '../db';
import { AppError } from '../errors';
import { promptKeys } from '../prompts/repo';
import { integrationKeys } from './repo';

/**
 * A queue or connection may hand its tickets only to a prompt or integration of its own company
 * that exists: one BatchGet, 400 naming the field otherwise (rather than a failure note on a ticket
 * later). Null or absent links are not checked.
 */
export async function assertOwnAssistants(
  companyId: number,
  links: { promptId?: number | null; integrationId?: number | null },
) {
  const wanted: [field: 'promptId' | 'integrationId', key: Key][] = [];
  if (typeof links.promptId === 'number') wanted.push(['promptId', promptKeys(companyId, links.promptId)]);
  if (typeof links.integrationId === 'number')
    wanted.push(['integrationId', integrationKeys(companyId, links.integrationId)]);
  if (!wanted.length) return;
  const found = await batchGet(wanted.map(([, key]) => key));
  const missing = wanted.filter(([, key]) => !found.some((i) => i.pk === key.pk && i.sk === key.sk));
  if (missing.length)
    throw new AppError(
      'ERR_VALIDATION',
      400,
      missing.map(([field]) => ({ path: [field], message: 'invalid' })),
    );
}
