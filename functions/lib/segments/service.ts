import {
  MAX_SEGMENTS,
  checkSegmentFields,
  type Segment,
  type SegmentBody,
  type SegmentCondition,
  type SegmentUpdateBody,
} from '#shared/schemas/segments';
import { deleteTx, putIfTx, putTx, transact } from '../db';
import { AppError } from '../errors';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { loadFields } from '../custom-fields/repo';
import { requireTags } from '../tags/repo';
import { SEGMENTS_COUNTER, loadSegments, requireSegment, segmentItem, segmentKeys } from './repo';

export { loadSegments, requireSegment };

/** Segments go to the whole company: every contacts page and campaign form offers them. */
const announce = (
  companyId: number,
  data: { action: 'create' | 'update'; segment: Segment } | { action: 'delete'; segmentId: number },
) => publish(companyId, 'segment', data);

/**
 * The conditions as stored: the tags are the company's (a foreign or unknown tag is ERR_NOT_FOUND),
 * each field condition names a contact field, asks what its type answers, and its value is read as
 * that type (ERR_VALIDATION naming the condition).
 */
async function checkedConditions(companyId: number, list: SegmentCondition[]): Promise<SegmentCondition[]> {
  const tagIds = list.flatMap((c) => (c.type === 'tag' ? c.ids : []));
  if (tagIds.length) await requireTags(companyId, [...new Set(tagIds)]);
  if (!list.some((c) => c.type === 'field')) return list;
  const { conditions, issues } = checkSegmentFields(await loadFields(companyId), list);
  if (issues.length) throw new AppError('ERR_VALIDATION', 400, issues);
  return conditions;
}

/** POST /segments: at most MAX_SEGMENTS per company (ERR_LIST_LIMIT_REACHED). */
export async function createSegment(companyId: number, body: SegmentBody): Promise<Segment> {
  const conditions = await checkedConditions(companyId, body.conditions);
  const id = await nextId(companyScope(companyId), 'segment');
  const now = nowIso();
  const segment: Segment = { id, companyId, name: body.name, conditions, createdAt: now, updatedAt: now };
  await transact(
    [putTx(segmentItem(segment), true), counterTx(companyScope(companyId), SEGMENTS_COUNTER, 1, MAX_SEGMENTS)],
    (index) =>
      index === 1
        ? new AppError('ERR_LIST_LIMIT_REACHED', undefined, { limit: 'segments', max: MAX_SEGMENTS })
        : new AppError('ERR_CONFLICT'),
  );
  await announce(companyId, { action: 'create', segment });
  return segment;
}

/** PUT /segments/{id}: replaced only if nobody saved it since it was read (else ERR_CONFLICT). */
export async function updateSegment(companyId: number, id: number, body: SegmentUpdateBody): Promise<Segment> {
  const before = await requireSegment(companyId, id);
  const after: Segment = {
    ...before,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.conditions ? { conditions: await checkedConditions(companyId, body.conditions) } : {}),
    updatedAt: nowIso(),
  };
  await transact([putIfTx(segmentItem(after), 'updatedAt', before.updatedAt)], () => new AppError('ERR_CONFLICT'));
  await announce(companyId, { action: 'update', segment: after });
  return after;
}

/**
 * DELETE /segments/{id}. A campaign that names it and has not been planned yet finds no segment and
 * plans no contact (campaigns/planner.ts); one already planned keeps its recipients.
 */
export async function deleteSegment(companyId: number, id: number) {
  await requireSegment(companyId, id);
  await transact(
    [
      deleteTx(segmentKeys(companyId, id), 'attribute_exists(pk)'),
      counterTx(companyScope(companyId), SEGMENTS_COUNTER, -1),
    ],
    () => new AppError('ERR_NOT_FOUND'),
  );
  await announce(companyId, { action: 'delete', segmentId: id });
  return { deleted: true };
}
