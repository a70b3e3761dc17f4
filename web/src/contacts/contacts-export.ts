import { toCsv } from '#shared/csv';
import { contactFieldCells, fieldsOf, type CustomField, type CustomFieldValues } from '#shared/schemas/custom-fields';

/** Contact export (management.md "Contacts" and section 9): CSV with a semicolon separator; name, number, email. */
export const CSV_SEPARATOR = ';';
export const CSV_FILE_NAME = 'contacts.csv';

/**
 * Every cell quoted and formulas neutralised (shared/csv.ts): contact names come from WhatsApp push names.
 * After email, a column per contact field headed by its name (a date as DD/MM/YYYY, a checkbox as
 * Sim/Não: what the import reads back).
 */
export function contactsCsv(
  contacts: {
    name: string;
    number: string;
    email?: string | null;
    customFields?: CustomFieldValues;
    extraInfo?: { name: string; value: string }[];
  }[],
  fields: CustomField[] = [],
): string {
  const headers = fieldsOf(fields, 'contact').map((f) => f.name);
  return toCsv(
    [
      ['name', 'number', 'email', ...headers],
      ...contacts.map((c) => [c.name, c.number, c.email, ...contactFieldCells(fields, c)]),
    ],
    CSV_SEPARATOR,
  );
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
