import type { ListFilter } from './membership';

/** The query a manager tab sends to `GET /tickets` (attendance.md section 7). */
export function listQuery(filter: ListFilter) {
  return {
    status: filter.tab === 'search' ? undefined : filter.tab === 'snoozed' ? 'open' : filter.tab,
    snoozed: filter.tab === 'snoozed' ? 'true' : undefined,
    showAll: filter.showAll ? 'true' : 'false',
    queueIds: filter.queueIds.length ? filter.queueIds : undefined,
    searchParam: filter.tab === 'search' ? filter.searchParam || undefined : undefined,
    tags: filter.tab === 'search' && filter.tags?.length ? filter.tags : undefined,
    users: filter.tab === 'search' && filter.users?.length ? filter.users : undefined,
  };
}

/**
 * The queues a manager names in its filter: every queue ticked is the same as none named (the
 * server's "all of mine"), so a company with more queues than a filter may name (MAX_QUERY_IDS) can
 * still tick them all.
 */
export const queueFilter = (selected: number[] | null, available: { id: number }[]) =>
  selected === null || available.every((q) => selected.includes(q.id)) ? [] : selected;
