import type { Tag, Ticket } from '../tickets/types';

/** The lane of tickets without a kanban tag (management.md "Kanban"). */
export const UNTAGGED_LANE = 'untagged';
export type LaneId = typeof UNTAGGED_LANE | `tag-${number}`;
export const laneOfTag = (tagId: number): LaneId => `tag-${tagId}`;

/** The ticket's lane: its first kanban tag, else the untagged lane. */
export function laneOf(ticket: Pick<Ticket, 'tags'>, laneTagIds: number[]): LaneId {
  const tag = (ticket.tags ?? []).find((t) => laneTagIds.includes(t.id));
  return tag ? laneOfTag(tag.id) : UNTAGGED_LANE;
}

export const tagIdOfLane = (lane: LaneId): number | null =>
  lane === UNTAGGED_LANE ? null : Number(lane.slice('tag-'.length));

/**
 * The ticket's tags after a move: the current kanban tag is removed, then the target lane's tag is
 * added; tags that are no lanes stay. The result is sent as one `POST /tags/sync`, so the ticket is
 * never seen half-moved and a failure leaves it where it was.
 */
export function movedTags(ticket: Pick<Ticket, 'tags'>, laneTagIds: number[], target: Tag | null): Tag[] {
  const kept = (ticket.tags ?? []).filter((t) => !laneTagIds.includes(t.id));
  return target ? [...kept, { id: target.id, name: target.name, color: target.color }] : kept;
}

/** Tickets grouped by lane, in the lanes' order (untagged first). */
export function groupByLane<T extends Pick<Ticket, 'tags'>>(tickets: T[], laneTagIds: number[]) {
  const lanes = new Map<LaneId, T[]>();
  lanes.set(UNTAGGED_LANE, []);
  for (const id of laneTagIds) lanes.set(laneOfTag(id), []);
  for (const ticket of tickets) lanes.get(laneOf(ticket, laneTagIds))!.push(ticket);
  return lanes;
}
