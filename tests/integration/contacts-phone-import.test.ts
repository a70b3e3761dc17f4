import { describe, expect, it } from 'vitest';
import { api, newCompany, realtimeClient } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { createContact, createUser } from './fixtures';

/** POST /contacts/import: the phone's address book (through the session runner) becomes contacts. */
const allContacts = async (token: string) => {
  const out: { id: number; name: string; number: string }[] = [];
  let cursor = '';
  for (;;) {
    const res = await api('GET', `/contacts?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      token,
    });
    out.push(...res.body.contacts);
    if (!res.body.hasMore) return out;
    cursor = res.body.cursor;
  }
};

describe('POST /contacts/import', () => {
  it('imports the address book of the default connection: new numbers become contacts, known ones are left alone, a second import creates nothing', async () => {
    const co = await newCompany('phonebook');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { isDefault: true });
    const known = await createContact(co.adminToken, { name: 'Já Salvo', number: '5511955550001' });
    await phone(co.companyId, w.id).setAddressBook([
      { number: '5511955550001', name: 'Nome no telefone' },
      { number: '5511955550002', name: 'Ana Agenda' },
      { number: '5511955550003', name: '' },
      { number: '12', name: 'curto demais' },
    ]);
    const rt = await realtimeClient(co.adminToken);
    try {
      const res = await api('POST', '/contacts/import', { token: co.adminToken });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ whatsappId: w.id, requestId: expect.any(String) });
      const done = await rt.waitFor((e) => e.event === `company-${co.companyId}-contact` && e.data.phoneImport, 10_000);
      expect(done.data.phoneImport).toMatchObject({
        requestId: res.body.requestId,
        created: 2,
        skipped: 1,
        invalid: 1,
      });
    } finally {
      rt.close();
    }
    const contacts = await allContacts(co.adminToken);
    const byNumber = new Map(contacts.map((c) => [c.number, c]));
    expect(byNumber.get('5511955550001')).toMatchObject({ id: known.id, name: 'Já Salvo' });
    expect(byNumber.get('5511955550002')).toMatchObject({ name: 'Ana Agenda' });
    // no name on the phone: the number stands in
    expect(byNumber.get('5511955550003')).toMatchObject({ name: '5511955550003' });
    expect(contacts).toHaveLength(3);

    await api('POST', '/contacts/import', { token: co.adminToken });
    await eventually(async () => true);
    expect(await allContacts(co.adminToken)).toHaveLength(3);
  });

  it('a large address book arrives in parts and is imported whole; a chosen connection is used', async () => {
    const co = await newCompany('phonebook-big');
    await connectedWhatsapp(co.adminToken, co.companyId, { isDefault: true });
    const second = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Second line' });
    const book = Array.from({ length: 1_203 }, (_, i) => ({
      number: `55219${String(i).padStart(8, '0')}`,
      name: `Agenda ${i}`,
    }));
    await phone(co.companyId, second.id).setAddressBook(book);
    const res = await api('POST', '/contacts/import', { token: co.adminToken, body: { whatsappId: second.id } });
    expect(res.status).toBe(202);
    expect(res.body.whatsappId).toBe(second.id);
    await eventually(
      async () => (await api('GET', '/contacts', { token: co.adminToken })).body.count === 1_203,
      60_000,
    );
    const numbers = new Set((await allContacts(co.adminToken)).map((c) => c.number));
    expect(numbers.size).toBe(1_203);
    expect(numbers.has('5521900001202')).toBe(true);
  }, 120_000);

  it('refuses a connection that is not connected, another company’s connection, and a user who is not an admin', async () => {
    const co = await newCompany('phonebook-refused');
    const other = await newCompany('phonebook-other');
    await connectedWhatsapp(other.adminToken, other.companyId);
    const othersLine = await connectedWhatsapp(other.adminToken, other.companyId, { name: 'Second line' });
    const idle = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Not paired' } });
    const notConnected = await api('POST', '/contacts/import', {
      token: co.adminToken,
      body: { whatsappId: idle.body.id },
    });
    expect(notConnected.status).toBe(400);
    expect(notConnected.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    // connection ids count per company: the other company's second line is an id this one has not used
    const foreign = await api('POST', '/contacts/import', {
      token: co.adminToken,
      body: { whatsappId: othersLine.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    const agent = await createUser(co);
    const denied = await api('POST', '/contacts/import', { token: agent.token });
    expect(denied.status).toBe(403);
    const bad = await api('POST', '/contacts/import', { token: co.adminToken, body: { whatsappId: 'x', more: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });
});
