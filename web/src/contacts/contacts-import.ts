/**
 * Contact import from a spreadsheet (management.md "Contacts": .xlsx; each row becomes a new contact
 * or an entry of the error list). The server validates; here rows only become `{ name, number, email, fields }`
 * (`fields`: the other columns, where the server finds the custom fields by their name or key).
 */
export interface ImportRow {
  name: string;
  number: string;
  email: string;
  /** the other columns, header -> cell (non-empty only): the server reads custom fields from them */
  fields?: Record<string, string>;
  /** the row's line in the spreadsheet (the header is line 1), for the error list */
  line?: number;
}
export interface ImportResult {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: { line?: number; contactName: string; error: { message: string } | string }[];
}

type ImportField = 'name' | 'number' | 'email';

const HEADERS: Record<ImportField, string[]> = {
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
      const { line, ...cells } = row;
      const other: Record<string, string> = {};
      for (const [header, value] of Object.entries(cells)) {
        const h = normalise(header);
        const known = (Object.keys(HEADERS) as ImportField[]).filter((field) => HEADERS[field].includes(h));
        for (const field of known) if (!out[field]) out[field] = cell(value);
        if (!known.length && cell(value) && !header.startsWith('__')) other[header.trim()] = cell(value);
      }
      if (Object.keys(other).length) out.fields = other;
      // Numbers typed as numbers in the sheet arrive raw (String keeps every digit); text may carry ".0".
      if (/^\d+(\.0+)?$/.test(out.number)) out.number = out.number.replace(/\.0+$/, '');
      // __rowNum__ counts from 0: the first data row (under the header) is line 2
      return typeof line === 'number' ? { ...out, line: line + 1 } : out;
    })
    .filter((r) => r.name || r.number || r.email || r.fields);
}

/**
 * Reads the first sheet of an .xls or .xlsx file into import rows, each with its spreadsheet `line`.
 * Runs in the worker (contacts-import.worker.ts); kept here so it is testable without one.
 */
export async function parseContactsFile(data: ArrayBuffer): Promise<ImportRow[]> {
  const XLSX = await import('@e965/xlsx');
  const book = XLSX.read(data, { type: 'array' });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) return [];
  const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet, { defval: '', raw: true });
  // SheetJS gives each row its 0-based place in the sheet as a hidden __rowNum__
  return rowsToContacts(rows.map((row) => ({ ...row, line: (row as { __rowNum__?: number }).__rowNum__ })));
}

/**
 * Parses the file off the main thread: a hostile workbook (the spreadsheet library's parsers have had
 * ReDoS and prototype-pollution bugs) can then neither freeze the tab nor touch the app's objects.
 */
export function readContactsFile(data: ArrayBuffer): Promise<ImportRow[]> {
  const worker = new Worker(new URL('./contacts-import.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<ImportRow[]>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ rows?: ImportRow[]; error?: string }>) =>
      event.data.rows ? resolve(event.data.rows) : reject(new Error(event.data.error ?? 'import failed'));
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(data, [data]);
  }).finally(() => worker.terminate());
}

/** The error list as the user sees it: contact name plus the error message. */
export const importErrors = (result: ImportResult) =>
  (result.errorBag ?? []).map((e) => ({
    line: e.line,
    contactName: e.contactName,
    message: typeof e.error === 'string' ? e.error : (e.error?.message ?? ''),
  }));
