/** Contact export (management.md "Contacts" and section 9): CSV with a semicolon separator; name, number, email. */
export const CSV_SEPARATOR = ';';
export const CSV_FILE_NAME = 'contacts.csv';

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`:
 * contact names come from customers' WhatsApp push names (CSV injection).
 */
const defuse = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
const quote = (value: string) => (/[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function contactsCsv(contacts: { name: string; number: string; email?: string | null }[]): string {
  const lines = [['name', 'number', 'email'], ...contacts.map((c) => [c.name ?? '', c.number ?? '', c.email ?? ''])];
  return `${lines.map((cols) => cols.map((v) => quote(defuse(String(v)))).join(CSV_SEPARATOR)).join('\r\n')}\r\n`;
}

/** Hands the CSV to the browser as a download (a BOM so spreadsheet apps read the accents right). */
export function downloadCsv(text: string, fileName = CSV_FILE_NAME) {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
