import { toCsv } from '#shared/csv';

/** Contact export (management.md "Contacts" and section 9): CSV with a semicolon separator; name, number, email. */
export const CSV_SEPARATOR = ';';
export const CSV_FILE_NAME = 'contacts.csv';

/** Every cell quoted and formulas neutralised (shared/csv.ts): contact names come from WhatsApp push names. */
export function contactsCsv(contacts: { name: string; number: string; email?: string | null }[]): string {
  return toCsv([['name', 'number', 'email'], ...contacts.map((c) => [c.name, c.number, c.email])], CSV_SEPARATOR);
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
