import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddressBook, MAX_PENDING, reportedNames } from './address-book';
import type { AuthStore } from './auth-store';

Object.assign(process.env, {
  TABLE_NAME: 'unused',
  MEDIA_BUCKET: 'unused',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'error',
});

/** What AddressBook uses of an AuthStore, over maps: field items by `type/id`, whole keys by `type/id`. */
function memoryAuth(initialKeys: Record<string, unknown> = {}) {
  const keys = new Map<string, unknown>(Object.entries(initialKeys));
  const items = new Map<string, Record<string, string>>();
  /** every setFields call: the fields written per contact */
  const writes: Record<string, Record<string, string>>[] = [];
  let failures = 0;
  const auth = {
    companyId: 1,
    whatsappId: 2,
    async getKeys(type: string, ids: string[]) {
      return Object.fromEntries(
        ids.filter((id) => keys.has(`${type}/${id}`)).map((id) => [id, keys.get(`${type}/${id}`)]),
      );
    },
    async setFields(type: string, entries: Map<string, Record<string, string>>) {
      if (failures > 0) {
        failures--;
        throw new Error('ProvisionedThroughputExceededException');
      }
      writes.push(Object.fromEntries(entries));
      for (const [id, fields] of entries) items.set(`${type}/${id}`, { ...items.get(`${type}/${id}`), ...fields });
    },
    async fieldsOf(type: string) {
      return new Map(
        [...items].filter(([k]) => k.startsWith(`${type}/`)).map(([k, v]) => [k.slice(type.length + 1), v]),
      );
    },
  };
  return { auth: auth as unknown as AuthStore, items, writes, failNext: (n: number) => (failures = n) };
}

const byNumber = (entries: { number: string; name: string }[]) =>
  [...entries].sort((a, b) => a.number.localeCompare(b.number));

describe('names of what WhatsApp reports', () => {
  it('keeps phone-number contacts with the saved name and their own apart; drops groups, LID-only ids and short numbers', () => {
    expect(reportedNames({ id: '5511955550001@s.whatsapp.net', name: 'Ana', notify: 'ana.k' })).toEqual({
      number: '5511955550001',
      names: { saved: 'Ana', push: 'ana.k' },
    });
    expect(reportedNames({ id: '5511955550002@s.whatsapp.net', notify: 'Bia' })).toEqual({
      number: '5511955550002',
      names: { saved: undefined, push: 'Bia' },
    });
    // a contact WhatsApp moved to a LID still carries its number
    expect(reportedNames({ id: '123456789@lid', phoneNumber: '5511955550003@s.whatsapp.net', name: 'Caio' })).toEqual({
      number: '5511955550003',
      names: { saved: 'Caio', push: undefined },
    });
    expect(reportedNames({ id: '123456789@lid', name: 'Sem número' })).toBeUndefined();
    expect(reportedNames({ id: '120363025@g.us', name: 'Grupo' })).toBeUndefined();
    expect(reportedNames({ id: 'status@broadcast' })).toBeUndefined();
    expect(reportedNames({ id: '123@s.whatsapp.net', name: 'curto' })).toBeUndefined();
  });
});

describe('AddressBook', () => {
  afterEach(() => vi.useRealTimers());

  it('merges pieces, keeps a name an update without one would erase, and survives a restart through the session keys', async () => {
    const { auth } = memoryAuth();
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
    expect(byNumber(await book.list())).toEqual([
      { number: '5511955550001', name: 'Ana' },
      { number: '5511955550002', name: 'Bia' },
    ]);
    // a new runner process: the same session keys
    const again = new AddressBook(auth, 5);
    again.merge([{ id: '5511955550003@s.whatsapp.net', name: 'Caio' }]);
    expect(byNumber(await again.list())).toEqual([
      { number: '5511955550001', name: 'Ana' },
      { number: '5511955550002', name: 'Bia' },
      { number: '5511955550003', name: 'Caio' },
    ]);
  });

  it('N7: the push name that comes with every message never replaces the name saved on the phone; it names a contact that has none', async () => {
    const { auth } = memoryAuth();
    const book = new AddressBook(auth, 5);
    book.merge([{ id: '5511955550001@s.whatsapp.net', name: 'Ana (cliente)' }]);
    await book.flush();
    // rc14: contacts.update {notify} for an inbound message, in a later process
    const later = new AddressBook(auth, 5);
    later.merge([{ id: '5511955550001@s.whatsapp.net', notify: 'ana.k' }]);
    later.merge([{ id: '5511955550002@s.whatsapp.net', notify: 'Bia' }]);
    await later.flush();
    expect(byNumber(await later.list())).toEqual([
      { number: '5511955550001', name: 'Ana (cliente)' },
      { number: '5511955550002', name: 'Bia' },
    ]);
    // a name saved later wins over the push name
    later.merge([{ id: '5511955550002@s.whatsapp.net', name: 'Beatriz' }]);
    expect(byNumber(await later.list())[1]).toEqual({ number: '5511955550002', name: 'Beatriz' });
  });

  it('writes only the names that changed, of the contacts that changed; a push name repeated with every message is not written again', async () => {
    const { auth, writes } = memoryAuth();
    const book = new AddressBook(auth, 5);
    book.merge([
      { id: '5511955550001@s.whatsapp.net', name: 'Ana' },
      { id: '5511955550002@s.whatsapp.net', name: 'Bia' },
    ]);
    await book.flush();
    book.merge([{ id: '5511955550001@s.whatsapp.net', notify: 'ana.k' }]);
    await book.flush();
    for (let i = 0; i < 5; i++) book.merge([{ id: '5511955550001@s.whatsapp.net', notify: 'ana.k' }]);
    await book.flush();
    expect(writes).toEqual([
      { '5511955550001': { saved: 'Ana' }, '5511955550002': { saved: 'Bia' } },
      { '5511955550001': { push: 'ana.k' } },
    ]);
  });

  it('holds at most MAX_PENDING changes before writing them, without waiting for the save timer', async () => {
    const { auth, writes } = memoryAuth();
    const book = new AddressBook(auth, 60_000);
    const contacts = Array.from({ length: MAX_PENDING + 1 }, (_, i) => ({
      id: `55119${String(i).padStart(8, '0')}@s.whatsapp.net`,
      name: `C${i}`,
    }));
    book.merge(contacts);
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    expect(Object.keys(writes[0]!)).toHaveLength(MAX_PENDING);
  });

  it('flush() resolves only once pending changes are stored: a failed write is tried again, nothing dropped', async () => {
    vi.useFakeTimers();
    const { auth, items, failNext } = memoryAuth();
    const book = new AddressBook(auth, 5);
    failNext(2);
    book.merge([{ id: '5511955550001@s.whatsapp.net', name: 'Ana' }]);
    let flushed = false;
    void book.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(flushed).toBe(false);
    // a change reported while the write is failing is kept too
    book.merge([{ id: '5511955550001@s.whatsapp.net', notify: 'ana.k' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(flushed).toBe(true);
    expect(items.get('contact-name/5511955550001')).toEqual({ saved: 'Ana', push: 'ana.k' });
  });

  it('an entry reported before it was written is listed; a book stored whole by an earlier version still lists, a saved name over it', async () => {
    const { auth } = memoryAuth({
      'address-book/book': { '5511955550001': 'Nome antigo', '5511955550002': 'Bia' },
    });
    const book = new AddressBook(auth, 60_000);
    book.merge([{ id: '5511955550001@s.whatsapp.net', name: 'Nome novo' }]);
    book.merge([{ id: '5511955550002@s.whatsapp.net', notify: 'bia.push' }]);
    expect(byNumber(await book.list())).toEqual([
      { number: '5511955550001', name: 'Nome novo' },
      { number: '5511955550002', name: 'Bia' },
    ]);
    book.discard();
  });
});
