/**
 * What the command bar's text asks of the tickets (issue 40 item 5): `#123` is a ticket number;
 * bare digits are a number and also a phone search; other text of two characters or more is the
 * tickets search (contact name, as the list's Search tab). A `/` starts a quick reply, not a ticket.
 */
export function ticketQuery(text: string): { number: number | null; search: string | null } {
  const hash = /^#\s*(\d{1,9})$/.exec(text);
  if (hash) return { number: Number(hash[1]), search: null };
  if (text.startsWith('#') || text.startsWith('/')) return { number: null, search: null };
  return {
    number: /^\d{1,9}$/.test(text) ? Number(text) : null,
    search: text.length >= 2 ? text.toLowerCase() : null,
  };
}
