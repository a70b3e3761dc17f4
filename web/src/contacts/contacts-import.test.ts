import { describe, expect, test } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { importErrors, parseContactsFile, rowsToContacts } from './contacts-import';

describe('contact import rows (management.md "Contacts": .xlsx)', () => {
  test('maps headers in pt, en or es, in any case, to name, number and email', () => {
    expect(rowsToContacts([{ Nome: 'Ana', Numero: '5511999990001', 'E-mail': 'ana@x.dev' }])).toEqual([
      { name: 'Ana', number: '5511999990001', email: 'ana@x.dev' },
    ]);
    expect(rowsToContacts([{ name: ' Bob ', number: 5511999990002, email: '' }])).toEqual([
      { name: 'Bob', number: '5511999990002', email: '' },
    ]);
    expect(
      rowsToContacts([{ Nombre: 'Carla', Teléfono: '5511999990003.0', Correo: 'c@x.dev', Extra: 'ignored' }]),
    ).toEqual([{ name: 'Carla', number: '5511999990003', email: 'c@x.dev', fields: { Extra: 'ignored' } }]);
  });
  test('columns other than name, number and email go under `fields` (custom fields), empty cells left out', () => {
    expect(rowsToContacts([{ name: 'Ana', number: '1', Plano: 'Ouro', ' VIP ': 'sim', Site: '' }])).toEqual([
      { name: 'Ana', number: '1', email: '', fields: { Plano: 'Ouro', VIP: 'sim' } },
    ]);
  });
  test('drops blank rows but keeps rows the server must reject (it lists them as errors)', () => {
    expect(
      rowsToContacts([
        { name: '', number: '', email: '' },
        { name: 'No number', number: '' },
      ]),
    ).toEqual([{ name: 'No number', number: '', email: '' }]);
  });
  test('reads the first sheet of a real .xlsx file', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['name', 'number', 'email'],
      ['Ana', 5511999990001, 'ana@x.dev'],
      ['Bob', '5511999990002', ''],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'contacts');
    const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
    expect(await parseContactsFile(bytes)).toEqual([
      { name: 'Ana', number: '5511999990001', email: 'ana@x.dev', line: 2 },
      { name: 'Bob', number: '5511999990002', email: '', line: 3 },
    ]);
  });
  test('the error list shows contact name plus message', () => {
    expect(
      importErrors({
        newContacts: [],
        errorBag: [
          { contactName: 'X', error: { message: 'ERR_DUPLICATED_CONTACT' } },
          { contactName: 'Y', error: 'invalid' },
        ],
      }),
    ).toEqual([
      { contactName: 'X', message: 'ERR_DUPLICATED_CONTACT' },
      { contactName: 'Y', message: 'invalid' },
    ]);
  });
});
