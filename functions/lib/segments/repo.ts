import type { Segment } from '#shared/schemas/segments';
import { getItem, queryAll, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * A company's segments live in one small partition, read whole for the list (one Query):
 * `C#<cid>#SEGMENTS` / `SEG#<pad(id)>`. Their count is the counter item `C#<cid>` / `COUNTER#segments`
 * (at most MAX_SEGMENTS), and their ids come from `COUNTER#segment` (ids.ts).
 */
const partition = (companyId: number) => `C#${companyId}#SEGMENTS`;
export const segmentKeys = (companyId: number, id: number) => ({ pk: partition(companyId), sk: `SEG#${pad(id)}` });
export const SEGMENTS_COUNTER = 'segments';

export const segmentItem = (segment: Segment): Item => ({ ...segmentKeys(segment.companyId, segment.id), ...segment });
const toSegment = (item: Item) => stripKeys(item) as Segment;

/** Every segment of the company, by name. */
export async function loadSegments(companyId: number): Promise<Segment[]> {
  const items = await queryAll({ pk: partition(companyId), sk: { beginsWith: 'SEG#' } });
  return items.map(toSegment).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export async function getSegment(companyId: number, id: number): Promise<Segment | undefined> {
  const item = await getItem(segmentKeys(companyId, id));
  return item ? toSegment(item) : undefined;
}

/** A missing or foreign segment is ERR_NOT_FOUND. */
export async function requireSegment(companyId: number, id: number): Promise<Segment> {
  const segment = await getSegment(companyId, id);
  if (!segment) throw new AppError('ERR_NOT_FOUND');
  return segment;
}
