import { describe, expect, test } from 'vitest';
import { expectNoFormulaCell, readCsv } from '../tests/csv';
import { toCsv } from './csv';

const FORMULA_START = /^[=+\-@\t\r]/;
/** Values a contact or queue name could hold: separators, quotes, line breaks and formulas. */
const NASTY = [
  'Silva; Ana',
  'Silva, Ana',
  'Ana "Aninha"',
  'two\nlines',
  'two\r\nlines',
  '=HYPERLINK("http://x")',
  "=cmd|' /C calc'!A0",
  '+5511999990001',
  '-2',
  '@SUM(1+1)',
  '\tTab',
  '\rReturn',
  'Ana = Bob',
  'João Ção',
  '',
];

describe('CSV cells (OWASP CSV injection: every field quoted, formulas neutralised)', () => {
  for (const separator of [';', ','] as const) {
    test(`read back with '${separator}', every value is the one written, a formula prefixed with an apostrophe`, () => {
      const rows = NASTY.map((v) => ['x', v, 'y']);
      const read = readCsv(toCsv(rows, separator), separator);
      expect(read).toEqual(rows.map(([a, v, b]) => [a, FORMULA_START.test(v!) ? `'${v}` : v, b]));
    });
  }

  test('no cell starts a formula, whichever separator the spreadsheet assumes', () => {
    const rows = NASTY.map((v) => [v, v, 1]);
    expectNoFormulaCell(toCsv(rows, ';'));
    expectNoFormulaCell(toCsv(rows, ','));
  });

  test('every field is in double quotes with inner quotes doubled, an empty one too; CRLF ends each row', () => {
    expect(toCsv([['Ana "A"', 7, null, undefined, '=1+1']], ';')).toBe('"Ana ""A""";"7";"";"";"\'=1+1"\r\n');
  });

  test('a number stays a number (-10.5), the same text is neutralised', () => {
    expect(toCsv([[-10.5, '-10.5']], ',')).toBe('"-10.5","\'-10.5"\r\n');
  });
});
