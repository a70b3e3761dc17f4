import { describe, expect, it } from 'vitest';
import { api, newCompany, runTimer, type TestCompany, usesTimers } from './helpers';
import { createContact, createTicket, createWhatsapp } from './fixtures';
import { eventually, phone } from './whatsapp-sim';

usesTimers('campaigns');

/**
 * Contacts WhatsApp knows only by a `@lid` id, without their phone number (issue 37 item 6): the
 * customer writes and is answered, found, edited and merged; a number learnt later completes the
 * same contact; campaigns leave such a contact out with the reason `noNumber`.
 */
const get = (co: TestCompany, path: string) => api('GET', path, { token: co.adminToken });
const lidOf = () => `9${Date.now()}${Math.floor(Math.random() * 90 + 10)}`.slice(0, 15);

/** A customer known only by its lid writes; its contact and ticket as the attendant sees them. */
async function lidCustomerWrites(co: TestCompany, whatsappId: number, pushName: string, body: string) {
  const lid = lidOf();
  await phone(co.companyId, whatsappId).send({ from: `${lid}@lid`, pushName, body });
  const contact = await eventually(async () => {
    const res = await get(co, `/contacts?searchParam=${encodeURIComponent(pushName)}`);
    return res.body.contacts?.find((c: any) => c.lid === lid);
  });
  const ticket = await eventually(async () => {
    const res = await get(co, '/tickets?status=pending&showAll=true');
    return res.body.tickets?.find((t: any) => t.contactId === contact.id);
  });
  return { lid, contact, ticket };
}

const messagesOf = async (co: TestCompany, ticketId: number) => (await get(co, `/messages/${ticketId}`)).body.messages;

describe('a contact known only by its @lid id', () => {
  it('writes: one contact named after its push name, without a number, and a ticket; the reply goes to the lid; search finds both', async () => {
    const co = await newCompany('lid-in');
    const w = await createWhatsapp(co);
    const { lid, contact, ticket } = await lidCustomerWrites(co, w.id, 'Renata Lid', 'preciso da segunda via');
    expect(contact).toMatchObject({ name: 'Renata Lid', number: '', lid });
    expect(ticket.contact).toMatchObject({ name: 'Renata Lid', number: '' });
    expect((await get(co, `/tickets/${ticket.id}`)).body.contact).toMatchObject({ id: contact.id, name: 'Renata Lid' });

    const reply = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'segue a via' } });
    expect(reply.status).toBe(201);
    const sent = await eventually(async () =>
      (await phone(co.companyId, w.id).outbound()).find((o: any) => o.body === 'segue a via'),
    );
    expect(sent.to).toBe(`${lid}@lid`);

    // the contacts page finds it by name; the full-text search finds its message with the contact
    expect((await get(co, '/contacts?searchParam=renata')).body.contacts.map((c: any) => c.id)).toEqual([contact.id]);
    const hit = await eventually(async () => {
      const res = await get(co, `/search?${new URLSearchParams({ q: 'segunda via ' })}`);
      return res.body.results?.find((r: any) => r.ticket?.id === ticket.id);
    });
    expect(hit.contact).toMatchObject({ id: contact.id, name: 'Renata Lid', number: '' });

    // a second message of the same lid: the same contact and ticket
    await phone(co.companyId, w.id).send({ from: `${lid}@lid`, body: 'obrigada' });
    await eventually(async () => (await messagesOf(co, ticket.id)).some((m: any) => m.body === 'obrigada'));
    const all = (await get(co, '/contacts')).body.contacts.filter((c: any) => c.lid === lid);
    expect(all).toHaveLength(1);
  });

  it('an admin edits it without giving a number, then adds the number: the guard links it, no duplicate', async () => {
    const co = await newCompany('lid-edit');
    const w = await createWhatsapp(co);
    const { contact, ticket } = await lidCustomerWrites(co, w.id, 'Otavio', 'oi');

    // renamed with the number left empty: the contact stays number-less, not refused
    const renamed = await api('PUT', `/contacts/${contact.id}`, {
      token: co.adminToken,
      body: { name: 'Otávio Lima', number: '', email: '' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Otávio Lima', number: '' });

    const number = `5511977${String(co.companyId).padStart(6, '0')}`;
    const added = await api('PUT', `/contacts/${contact.id}`, { token: co.adminToken, body: { number } });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ number, lid: contact.lid });
    // the ticket shows the number now
    expect((await get(co, `/tickets/${ticket.id}`)).body.contact.number).toBe(number);
    // the number is taken by this contact
    const twin = await api('POST', '/contacts', { token: co.adminToken, body: { name: 'Outro', number } });
    expect(twin.status).toBe(409);
    expect(twin.body.error).toBe('ERR_DUPLICATED_CONTACT');
    // the customer writes from the number: the same contact and ticket
    await phone(co.companyId, w.id).send({ from: number, body: 'pelo número' });
    await eventually(async () => (await messagesOf(co, ticket.id)).some((m: any) => m.body === 'pelo número'));
    const found = (await get(co, `/contacts?searchParam=${number}`)).body.contacts;
    expect(found.map((c: any) => c.id)).toEqual([contact.id]);
  });

  it('merges into the numbered contact of the same person: its tickets and messages follow, the lid reaches the kept contact', async () => {
    const co = await newCompany('lid-merge');
    const w = await createWhatsapp(co);
    const { lid, contact, ticket } = await lidCustomerWrites(co, w.id, 'Paula', 'pelo lid');
    const numbered = await createContact(co.adminToken, { name: 'Paula Souza' });
    const merged = await api('POST', `/contacts/${numbered.id}/merge`, {
      token: co.adminToken,
      body: { otherId: contact.id },
    });
    expect(merged.status).toBe(200);
    await eventually(async () => (await get(co, `/contacts/${contact.id}`)).status === 404);
    const kept = (await get(co, `/contacts/${numbered.id}`)).body;
    expect(kept).toMatchObject({ number: numbered.number });
    expect((await get(co, `/tickets/${ticket.id}`)).body.contactId).toBe(numbered.id);
    expect((await messagesOf(co, ticket.id)).map((m: any) => m.body)).toContain('pelo lid');
    // the lid writes again: the kept contact, no lid-only twin
    await phone(co.companyId, w.id).send({ from: `${lid}@lid`, body: 'de novo' });
    await eventually(async () => {
      const tickets = (await get(co, '/tickets?status=pending&showAll=true')).body.tickets;
      const open = (await get(co, '/tickets?status=open&showAll=true')).body.tickets;
      const mine = [...tickets, ...open].filter((t: any) => t.contactId === numbered.id);
      for (const t of mine) if ((await messagesOf(co, t.id)).some((m: any) => m.body === 'de novo')) return true;
      return false;
    });
    expect((await get(co, '/contacts?searchParam=Paula')).body.contacts.map((c: any) => c.id)).toEqual([numbered.id]);
  });

  it('a lidMapping arriving later fills the number: no second contact, no second ticket', async () => {
    const co = await newCompany('lid-map');
    const w = await createWhatsapp(co);
    const { lid, contact, ticket } = await lidCustomerWrites(co, w.id, 'Quiteria', 'antes');
    const number = `5511966${String(co.companyId).padStart(6, '0')}`;
    await phone(co.companyId, w.id).lidMapping(lid, number);
    const filled = await eventually(async () => {
      const c = (await get(co, `/contacts/${contact.id}`)).body;
      return c.number === number ? c : undefined;
    });
    expect(filled).toMatchObject({ id: contact.id, lid, name: 'Quiteria' });
    expect((await get(co, `/tickets/${ticket.id}`)).body.contact.number).toBe(number);
    // the customer writes from the number: the same ticket
    await phone(co.companyId, w.id).send({ from: number, body: 'depois' });
    await eventually(async () => (await messagesOf(co, ticket.id)).some((m: any) => m.body === 'depois'));
    const pending = (await get(co, '/tickets?status=pending&showAll=true')).body.tickets;
    expect(pending.filter((t: any) => t.contact?.name === 'Quiteria')).toHaveLength(1);
    expect((await get(co, '/contacts?searchParam=Quiteria')).body.contacts).toHaveLength(1);
  });

  it('the messages API refuses a @lid address (it sends to numbers only)', async () => {
    const co = await newCompany('lid-api');
    const w = await createWhatsapp(co);
    const res = await api('POST', '/messages/send', {
      headers: { authorization: `Bearer ${w.token}` },
      body: { number: '123456789012345@lid', body: 'oi' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });
});

describe('campaigns leave a contact without a number out, with the reason', () => {
  it('a tag audience: the lid-only contact gets a shipping item `skipped`/`noNumber`, is not sent to nor counted valid', async () => {
    const co = await newCompany('lid-camp');
    const w = await createWhatsapp(co);
    await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings: { messageInterval: 5 } } });
    const vip = (await api('POST', '/tags', { token: co.adminToken, body: { name: 'VIP', color: '#111111' } })).body;
    const numbered = await createContact(co.adminToken, { name: 'Com Número' });
    const numberedTicket = await createTicket(co.adminToken, { contactId: numbered.id, whatsappId: w.id });
    const { lid, ticket } = await lidCustomerWrites(co, w.id, 'Sem Numero', 'oi');
    for (const t of [numberedTicket, ticket])
      await api('POST', '/tags/sync', { token: co.adminToken, body: { ticketId: t.id, tags: [{ id: vip.id }] } });

    const created = await api('POST', '/campaigns', {
      token: co.adminToken,
      body: {
        name: 'Promo',
        message1: 'Oi {{firstName}}',
        whatsappId: w.id,
        tagId: vip.id,
        scheduledAt: new Date(Date.now() - 1000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await runTimer('campaigns');
    const done = await eventually(async () => {
      const c = (await get(co, `/campaigns/${id}`)).body;
      return c.status === 'FINALIZADA' ? c : undefined;
    }, 20_000);
    expect(done.validContacts).toBe(1);
    const out = (await phone(co.companyId, w.id).outbound()).filter((o: any) => o.body?.startsWith('Oi '));
    expect(out.map((o: any) => o.to)).toEqual([`${numbered.number}@s.whatsapp.net`]);
    expect(out.some((o: any) => o.to.includes(lid))).toBe(false);

    const report = (await get(co, `/campaigns/${id}/report`)).body;
    const skipped = report.shipping.filter((s: any) => s.status === 'skipped');
    expect(skipped).toEqual([expect.objectContaining({ name: 'Sem Numero', number: '', error: 'noNumber' })]);
    expect(report.shipping.find((s: any) => s.number === numbered.number)?.status).toBe('sent');
    expect(report.failed).toBe(0);
  });
});
