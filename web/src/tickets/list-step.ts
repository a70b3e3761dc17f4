/**
 * The ticket the next/previous shortcut opens in a list (issue 40 item 5): the neighbour of the one
 * open, among the rows a click opens (pending rows are accepted, never opened); from no open ticket
 * of the list, the first (or, going up, the last). Null at either end.
 */
export function stepTicket<T extends { uuid: string; status: string }>(
  tickets: readonly T[],
  openUuid: string | undefined,
  by: 1 | -1,
): T | null {
  const openable = tickets.filter((tk) => tk.status !== 'pending');
  const at = openable.findIndex((tk) => tk.uuid === openUuid);
  const next = at === -1 ? (by === 1 ? 0 : openable.length - 1) : at + by;
  return openable[next] ?? null;
}
