import * as XLSX from '@e965/xlsx';
import { expect } from 'vitest';

/** The cells of a CSV text as a CSV library reads them with the given separator, each as its text. */
export function readCsv(text: string, separator: ';' | ','): string[][] {
  const book = XLSX.read(text, { type: 'string', FS: separator, raw: true, dense: true });
  const sheet = book.Sheets[book.SheetNames[0]!]!;
  return XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' });
}

/**
 * No cell starts a formula (= + - @ tab CR first), whether the spreadsheet reads the file with `;`
 * (the Brazilian default) or with `,`: a file opened with the other separator must not be a way in.
 */
export function expectNoFormulaCell(text: string) {
  for (const separator of [';', ','] as const) {
    const formulas = readCsv(text, separator)
      .flat()
      .filter((cell) => /^[=+\-@\t\r]/.test(cell));
    expect(formulas, `read with '${separator}'`).toEqual([]);
  }
}
