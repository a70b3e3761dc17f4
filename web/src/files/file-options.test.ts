import { describe, expect, test } from 'vitest';
import { newOptionRow, optionsBody, rowsFromOptions, shownFileName } from './file-options';

describe('file list dialog options', () => {
  test('a row shows the chosen file name, else the stored path', () => {
    const file = new File(['x'], 'price list.pdf', { type: 'application/pdf' });
    expect(shownFileName({ file, path: 'company1/files/old.pdf' })).toBe('price list.pdf');
    expect(shownFileName({ file: null, path: 'company1/files/old.pdf' })).toBe('old.pdf');
    expect(shownFileName({ file: null, path: '' })).toBe('');
    expect(shownFileName({ file: null, path: 'company1/media/d25d4a59-fb6a-4ecc-b426-6fa2bd0421e0-tabela.pdf' })).toBe(
      'tabela.pdf',
    );
  });

  test('the save body keeps stored ids, puts uploaded keys in place of files and drops empty rows', () => {
    const stored = rowsFromOptions([{ id: 4, name: 'Menu', path: 'company1/media/menu.png', mediaType: 'image/png' }]);
    const withFile = { ...newOptionRow(), name: ' Price ', file: new File(['x'], 'p.pdf') };
    const empty = newOptionRow();
    const uploaded = new Map([[withFile.key, { key: 'company1/media/p.pdf', mimetype: 'application/pdf' }]]);
    expect(optionsBody([...stored, withFile, empty], uploaded)).toEqual([
      { id: 4, name: 'Menu', path: 'company1/media/menu.png', mediaType: 'image/png' },
      { name: 'Price', path: 'company1/media/p.pdf', mediaType: 'application/pdf' },
    ]);
  });

  test('new rows get distinct keys', () => {
    expect(newOptionRow().key).not.toBe(newOptionRow().key);
  });
});
