/** A CSV cell: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | null | undefined;

/** What a spreadsheet reads as the start of a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell, always in double quotes with inner quotes doubled, so a separator, a quote or a line
 * break inside a value never splits it, whichever separator the spreadsheet assumes. Text that would
 * start a formula gets a leading `'`: names come from customers' WhatsApp profiles. A number is
 * written as its numeral (`-10.5` stays a number): its text cannot hold a formula.
 */
function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '""';
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

/** Rows as CSV text: every cell through `csvCell`, CRLF after every row (RFC 4180). */
export function toCsv(rows: readonly (readonly CsvCell[])[], separator: ';' | ','): string {
  return rows.map((row) => `${row.map(csvCell).join(separator)}\r\n`).join('');
}
