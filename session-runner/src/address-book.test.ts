import { describe, expect, it } from 'vitest';
import { AddressBook, addressBookEntry } from './address-book';
import type { AuthStore } from './auth-store';

/** An AuthStore's key interface over a map (what AddressBook uses of it). */
function memoryAuth(initial: Record<string, unknown> = {}) {
  const keys = new Map<string, unknown>(Object.entries(initial));
  const writes: unknown[] = [];
  const auth = {
    async getKeys(type: string, ids: string[]) {
      return Object.fromEntries(
        ids.filter((id) => keys.has(`${type}/${id}`)).map((id) => [id, keys.get(`${type}/${id}`)]),
      );
    },
    async setKeys(data: Record<string, Record<string, unknown>>) {
      for (const [type, values] of Object.entries(data))
        for (const [id, value] of Object.entries(values)) keys.set(`${type}/${id}`, value);
      writes.push(data);
    },
  };
  return { auth: auth as unknown as AuthStore, keys, writes };
}

describe('address book entries from what WhatsApp reports', () => {
  it('keeps phone-number contacts with the saved name, else their own name; drops groups, LID-only ids and short numbers', () => {
    expect(addressBookEntry({ id: '5511955550001@s.whatsapp.net', name: 'Ana', notify: 'ana.k' })).toEqual({
      number: '5511955550001',
      name: 'Ana',
    });
    expect(addressBookEntry({ id: '5511955550002@s.whatsapp.net', notify: 'Bia' })).toEqual({
      number: '5511955550002',
      name: 'Bia',
    });
    // a contact WhatsApp moved to a LID still carries its number
    expect(
      addressBookEntry({ id: '123456789@lid', phoneNumber: '5511955550003@s.whatsapp.net', name: 'Caio' }),
    ).toEqual({ number: '5511955550003', name: 'Caio' });
    expect(addressBookEntry({ id: '123456789@lid', name: 'Sem número' })).toBeUndefined();
    expect(addressBookEntry({ id: '120363025@g.us', name: 'Grupo' })).toBeUndefined();
    expect(addressBookEntry({ id: 'status@broadcast' })).toBeUndefined();
    expect(addressBookEntry({ id: '123@s.whatsapp.net', name: 'curto' })).toBeUndefined();
  });
});

describe('AddressBook', () => {
  it('merges pieces, keeps a name an update without one would erase, and survives a restart through the session keys', async () => {
    const { auth, writes } = memoryAuth();
    const book = new AddressBook(auth, 5);
    expect(
      book.merge([
        { id: '5511955550001@s.whatsapp.net', name: 'Ana' },
        { id: '120363025@g.us', name: 'G' },
      ]),
    ).toBe(true);
    expect(book.merge([{ id: '5511955550001@s.whatsapp.net' }])).toBe(false);
    expect(book.merge([{ id: '5511955550002@s.whatsapp.net', notify: 'Bia' }])).toBe(true);
    await book.flush();
    expect(writes).toHaveLength(1);
    expect(await book.list()).toEqual([
      { number: '5511955550001', name: 'Ana' },
      { number: '5511955550002', name: 'Bia' },
    ]);
    // a new runner process: the same session keys
    const again = new AddressBook(auth, 5);
    again.merge([{ id: '5511955550003@s.whatsapp.net', name: 'Caio' }]);
    expect(await again.list()).toEqual([
      { number: '5511955550003', name: 'Caio' },
      { number: '5511955550001', name: 'Ana' },
      { number: '5511955550002', name: 'Bia' },
    ]);
  });

  it('an entry reported while the stored book loads wins over the stored one', async () => {
    const { auth } = memoryAuth({ 'address-book/book': { '5511955550001': 'Nome antigo' } });
    const book = new AddressBook(auth, 5);
    book.merge([{ id: '5511955550001@s.whatsapp.net', name: 'Nome novo' }]);
    expect(await book.list()).toEqual([{ number: '5511955550001', name: 'Nome novo' }]);
  });
});
