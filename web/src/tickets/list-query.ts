import type { ListFilter } from './membership';

/** The query a manager tab sends to `GET /tickets` (attendance.md section 7). */
export function listQuery(filter: ListFilter) {
  return {
    status: filter.tab === 'search' ? undefined : filter.tab,
    showAll: filter.showAll ? 'true' : 'false',
    queueIds: filter.queueIds.length ? filter.queueIds : undefined,
    searchParam: filter.tab === 'search' ? filter.searchParam || undefined : undefined,
    tags: filter.tab === 'search' && filter.tags?.length ? filter.tags : undefined,
    users: filter.tab === 'search' && filter.users?.length ? filter.users : undefined,
  };
}
