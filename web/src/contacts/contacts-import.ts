/**
 * Contact import from a spreadsheet (management.md "Contacts": .xlsx; each row becomes a new contact
 * or an entry of the error list). The server validates; here rows only become `{ name, number, email }`.
 */
export interface ImportRow {
  name: string;
  number: string;
  email: string;
}
export interface ImportResult {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: { contactName: string; error: { message: string } | string }[];
}

const HEADERS: Record<keyof ImportRow, string[]> = {
  name: ['name', 'nome', 'nombre', 'contato', 'contact'],
  number: ['number', 'numero', 'número', 'phone', 'telefone', 'teléfono', 'telefono', 'whatsapp', 'celular'],
  email: ['email', 'e-mail', 'correo', 'mail'],
};

const normalise = (header: string) => header.trim().toLowerCase();
const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value).trim());

/** Spreadsheet rows (header -> cell) to import rows; headers in pt, en or es, any case; blank rows dropped. */
export function rowsToContacts(rows: Record<string, unknown>[]): ImportRow[] {
  return rows
    .map((row) => {
      const out: ImportRow = { name: '', number: '', email: '' };
      for (const [header, value] of Object.entries(row)) {
        const h = normalise(header);
        for (const field of Object.keys(HEADERS) as (keyof ImportRow)[])
          if (HEADERS[field].includes(h) && !out[field]) out[field] = cell(value);
      }
      // Numbers typed as numbers in the sheet arrive raw (String keeps every digit); text may carry ".0".
      if (/^\d+(\.0+)?$/.test(out.number)) out.number = out.number.replace(/\.0+$/, '');
      return out;
    })
    .filter((r) => r.name || r.number || r.email);
}

/** Reads the first sheet of an .xlsx file (xlsx is loaded only when a file is imported). */
export async function readContactsFile(data: ArrayBuffer): Promise<ImportRow[]> {
  const XLSX = await import('xlsx');
  const book = XLSX.read(data, { type: 'array' });
  const sheet = book.Sheets[book.SheetNames[0]];
  if (!sheet) return [];
  return rowsToContacts(XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet, { defval: '', raw: true }));
}

/** The error list as the user sees it: contact name plus the error message. */
export const importErrors = (result: ImportResult) =>
  (result.errorBag ?? []).map((e) => ({
    contactName: e.contactName,
    message: typeof e.error === 'string' ? e.error : (e.error?.message ?? ''),
  }));
