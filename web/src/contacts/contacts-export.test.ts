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
});
