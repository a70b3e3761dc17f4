import { beforeAll, describe, expect, it } from 'vitest';
import { api, useStackFromWorker, newCompany, realtimeClient, type TestCompany } from './helpers';
import { createContact, createUser, createWhatsapp } from './fixtures';
import { eventually, phone } from './whatsapp-sim';

/**
 * Contact merge (issue 27 item 4): suggested duplicates, the merge over HTTP and what it moves read
 * back through the API, the interrupted merge resumed, and the automatic merge of a lid-only contact
 * when the session learns its number. The interrupted merge runs the service in this worker (the
 * stack runs in another process) pointed at the same table, as inbound-cost.test.ts does.
 */
let fns: {
  mergeContacts: typeof import('../../functions/lib/contacts/merge').mergeContacts;
  updateContact: typeof import('../../functions/lib/contacts/service').updateContact;
  handleInbound: typeof import('../../functions/lib/inbound/handle').handleInbound;
};

beforeAll(async () => {
  await useStackFromWorker();
  const [merge, service, handle] = await Promise.all([
    import('../../functions/lib/contacts/merge'),
    import('../../functions/lib/contacts/service'),
    import('../../functions/lib/inbound/handle'),
  ]);
  fns = {
    mergeContacts: merge.mergeContacts,
    updateContact: service.updateContact,
    handleInbound: handle.handleInbound,
  };
});

const get = async (co: TestCompany, path: string) => api('GET', path, { token: co.adminToken });
const post = async (co: TestCompany, path: string, body?: unknown) => api('POST', path, { token: co.adminToken, body });

async function allDuplicates(co: TestCompany) {
  const out: any[] = [];
  let cursor: string | undefined;
  do {
    const res = await get(co, `/contacts/duplicates${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.suggestions);
    cursor = res.body.hasMore ? res.body.cursor : undefined;
  } while (cursor);
  return out;
}

const pairOf = (s: any) => s.contacts.map((c: any) => c.id).sort((a: number, b: number) => a - b);
const findPair = (list: any[], a: number, b: number) =>
  list.find((s) => JSON.stringify(pairOf(s)) === JSON.stringify([a, b].sort((x, y) => x - y)));

/** Every message of a ticket's conversation, paging back through the cursor. */
async function allMessages(co: TestCompany, ticketId: number) {
  const out: any[] = [];
  let cursor: string | undefined;
  do {
    const res = await get(co, `/messages/${ticketId}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.messages);
    cursor = res.body.hasMore ? res.body.cursor : undefined;
  } while (cursor);
  return out;
}

/** The ticket a customer's message led to (the newest of the contact's). */
async function ticketOfContact(co: TestCompany, contactId: number) {
  return eventually(async () => {
    const res = await get(co, '/tickets?status=pending&showAll=true');
    return res.body.tickets?.find((t: any) => t.contactId === contactId);
  });
}

async function contactByNumber(co: TestCompany, number: string) {
  return eventually(async () => {
    const res = await get(co, `/contacts?searchParam=${number}`);
    return res.body.contacts?.find((c: any) => c.number === number);
  });
}

describe('suggested duplicates', () => {
  it('lists a pair per reason: the same number in another notation, the same name and number suffix, a lid mapped to the number', async () => {
    const co = await newCompany('dup');
    const a = await createContact(co.adminToken, { name: 'Maria Silva', number: '+55 (11) 98765-4321' });
    const b = await createContact(co.adminToken, { name: 'Maria S.', number: '551187654321' });
    const c = await createContact(co.adminToken, { name: 'João Souza', number: '5511911112222' });
    const d = await createContact(co.adminToken, { name: 'JOAO  souza', number: '5521933332222' });
    const loner = await createContact(co.adminToken, { name: 'Maria Silva', number: '5531955556666' });
    // a lid-only contact the session said belongs to a's number (the state a merge starts from)
    const w = await createWhatsapp(co);
    await phone(co.companyId, w.id).send({ from: '88776655443322@lid', pushName: 'Mari', body: 'oi' });
    const lidOnly = await eventually(async () => {
      const res = await get(co, '/contacts?searchParam=Mari');
      return res.body.contacts?.find((x: any) => x.lid === '88776655443322');
    });
    await fns.updateContact(co.companyId, lidOnly.id, { lidPn: '5511987654321' });

    const list = await allDuplicates(co);
    expect(findPair(list, a.id, b.id)?.reasons).toEqual(['number']);
    expect(findPair(list, c.id, d.id)?.reasons).toEqual(['name']);
    expect(findPair(list, a.id, lidOnly.id)?.reasons).toEqual(['lid']);
    expect(findPair(list, b.id, lidOnly.id)?.reasons).toEqual(['lid']);
    // same name, another number: not a suggestion
    expect(list.some((s) => pairOf(s).includes(loner.id))).toBe(false);
    expect(list).toHaveLength(4);

    // small pages walk the same suggestions through the cursor
    const first = await get(co, '/contacts/duplicates?limit=1');
    expect(first.body.hasMore).toBe(true);
    const rest = await get(co, `/contacts/duplicates?cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(rest.body.hasMore).toBe(false);
    expect([...first.body.suggestions, ...rest.body.suggestions].map(pairOf).sort()).toEqual(list.map(pairOf).sort());

    // "not duplicates" is remembered
    const dismissed = await post(co, '/contacts/duplicates/dismiss', { contactIds: [d.id, c.id] });
    expect(dismissed.status).toBe(200);
    const after = await allDuplicates(co);
    expect(findPair(after, c.id, d.id)).toBeUndefined();
    expect(after).toHaveLength(3);
  });

  it('admins only; another company cannot see or touch the contacts; a contact is not its own duplicate', async () => {
    const co = await newCompany('dupacl');
    const other = await newCompany('dupacl2');
    const a = await createContact(co.adminToken, { number: '5511970001111' });
    // ids count per company: the other company's third contact has an id this company does not use
    await createContact(other.adminToken);
    await createContact(other.adminToken);
    const foreign = await createContact(other.adminToken, { number: '5511970001111' });
    const agent = await createUser(co);
    const as = (path: string, method = 'GET', body?: unknown) => api(method, path, { token: agent.token, body });

    expect((await as('/contacts/duplicates')).status).toBe(403);
    expect((await as(`/contacts/${a.id}/merge`, 'POST', { otherId: a.id + 1 })).status).toBe(403);
    expect((await as(`/contacts/${a.id}/merge/${a.id + 1}`)).status).toBe(403);
    expect((await as('/contacts/duplicates/dismiss', 'POST', { contactIds: [a.id, a.id + 1] })).status).toBe(403);

    // the other company's contact with the same number is no suggestion, and no merge
    expect(await allDuplicates(co)).toEqual([]);
    const cross = await post(co, `/contacts/${a.id}/merge`, { otherId: foreign.id });
    expect(cross.status, JSON.stringify(cross.body)).toBe(404);
    expect(cross.body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await get(co, `/contacts/${a.id}/merge/${foreign.id}`)).status).toBe(404);
    expect((await get(other, `/contacts/${foreign.id}`)).status).toBe(200);

    const self = await post(co, `/contacts/${a.id}/merge`, { otherId: a.id });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('ERR_MERGE_SAME_CONTACT');
    const bad = await post(co, `/contacts/${a.id}/merge`, { otherId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });
});

describe('merging two contacts', () => {
  it('moves tickets, their messages, tags, notes, schedules, list memberships and custom fields; records and announces it', async () => {
    const co = await newCompany('merge');
    const w = await createWhatsapp(co);
    const sim = phone(co.companyId, w.id);
    const keepNumber = '5511981112222';
    const otherNumber = '551181113333';

    // the kept contact writes: a pending ticket on the connection
    await sim.send({ from: keepNumber, pushName: 'Ana Lima', body: 'keep one' });
    const keep = await contactByNumber(co, keepNumber);
    const keepTicket = await ticketOfContact(co, keep.id);
    await api('PUT', `/contacts/${keep.id}`, {
      token: co.adminToken,
      body: { email: 'ana@keep.dev', extraInfo: [{ name: 'plan', value: 'gold' }] },
    });

    // the other contact: a closed ticket, then an open one on the same connection (two messages each)
    await sim.send({ from: otherNumber, pushName: 'Ana L.', body: 'other 1' });
    const other = await contactByNumber(co, otherNumber);
    const closedTicket = await ticketOfContact(co, other.id);
    await sim.send({ from: otherNumber, body: 'other 2' });
    await eventually(async () => (await allMessages(co, closedTicket.id)).length === 2);
    expect(
      (await api('PUT', `/tickets/${closedTicket.id}`, { token: co.adminToken, body: { status: 'closed' } })).status,
    ).toBe(200);
    await sim.send({ from: otherNumber, body: 'other 3' });
    const openTicket = await eventually(async () => {
      const t = await ticketOfContact(co, other.id);
      return t.id !== closedTicket.id && t;
    });
    // our reply on the open ticket: its ack must still find it after the merge
    const reply = await post(co, `/messages/${openTicket.id}`, { body: 'reply to other' });
    expect(reply.status).toBe(201);
    await api('PUT', `/contacts/${other.id}`, {
      token: co.adminToken,
      body: {
        email: 'ana@other.dev',
        extraInfo: [
          { name: 'plan', value: 'silver' },
          { name: 'city', value: 'Recife' },
        ],
      },
    });
    const tag = await post(co, '/tags', { name: 'VIP', color: '#123456' });
    expect((await post(co, '/tags/sync', { ticketId: closedTicket.id, tags: [{ id: tag.body.id }] })).status).toBe(200);
    const note = await post(co, '/ticket-notes', {
      note: 'called back',
      ticketId: closedTicket.id,
      contactId: other.id,
    });
    expect(note.status).toBe(201);
    const schedule = await post(co, '/schedules', {
      body: 'Reminder about the order',
      contactId: other.id,
      sendAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(schedule.status).toBe(201);
    const list = await post(co, '/contact-lists', { name: 'Customers' });
    const member = await post(co, '/contact-list-items', {
      name: 'Ana L.',
      number: otherNumber,
      email: '',
      contactListId: list.body.id,
    });
    expect(member.status).toBe(201);

    const preview = await get(co, `/contacts/${keep.id}/merge/${other.id}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      tickets: 2,
      messages: 4,
      notes: 1,
      schedules: 1,
      listMemberships: 1,
      extraInfo: 2,
      closedTickets: 1,
    });

    const rt = await realtimeClient(co.adminToken);
    const merged = await post(co, `/contacts/${keep.id}/merge`, { otherId: other.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.counts).toEqual({
      tickets: 2,
      messages: 4,
      notes: 1,
      schedules: 1,
      listMemberships: 1,
      // city, plan (#other), email (#other), name (#other)
      extraInfo: 4,
      closedTickets: 1,
    });
    await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-contact` && e.data.action === 'delete' && e.data.contactId === other.id,
    );
    await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-ticket` &&
        e.data.ticket?.id === closedTicket.id &&
        e.data.ticket.contactId === keep.id,
    );
    rt.close();

    // the other contact is gone; the kept one has the union of the fields (its own values win)
    expect((await get(co, `/contacts/${other.id}`)).status).toBe(404);
    const kept = (await get(co, `/contacts/${keep.id}`)).body;
    expect(kept.email).toBe('ana@keep.dev');
    expect(kept.extraInfo).toEqual(
      expect.arrayContaining([
        { name: 'plan', value: 'gold' },
        { name: 'city', value: 'Recife' },
        { name: `plan (#${other.id})`, value: 'silver' },
        { name: 'email', value: 'ana@other.dev' },
      ]),
    );
    // the other's number is no contact's own any more; it is listed on the kept contact and leads to it
    expect((await get(co, `/contacts?searchParam=${otherNumber}`)).body.contacts).toEqual([]);
    expect(kept.mergedNumbers).toEqual([otherNumber]);

    // tickets: both moved; the open one closed because the kept contact has one open on that connection
    const t1 = (await get(co, `/tickets/${closedTicket.id}`)).body;
    const t2 = (await get(co, `/tickets/${openTicket.id}`)).body;
    expect([t1.contactId, t1.contact.id, t2.contactId, t2.contact.id]).toEqual([keep.id, keep.id, keep.id, keep.id]);
    expect(t1.tags.map((t: any) => t.id)).toEqual([tag.body.id]);
    expect(t2.status).toBe('closed');
    expect((await get(co, `/tickets/${keepTicket.id}`)).body.status).toBe('pending');

    // messages: the kept ticket's history holds both conversations, each message once
    const history = await allMessages(co, keepTicket.id);
    const bodies = history.map((m: any) => m.body);
    expect(bodies).toEqual(expect.arrayContaining(['keep one', 'other 1', 'other 2', 'other 3', 'reply to other']));
    expect(new Set(history.map((m: any) => m.id)).size).toBe(history.length);
    expect(history).toHaveLength(5);
    expect((await allMessages(co, openTicket.id)).length).toBe(5);
    // an ack of the reply sent before the merge still reaches it (its wid guard moved with it)
    const sent = (await sim.outbound()).find((o: any) => o.body === 'reply to other');
    await sim.ack(sent.wid, 3);
    await eventually(
      async () => (await allMessages(co, keepTicket.id)).find((m: any) => m.body === 'reply to other')?.ack === 3,
    );

    // notes, schedules, list memberships follow the kept contact
    // (and the closed ticket carries a system note saying why)
    const notes = await get(co, `/ticket-notes/list?contactId=${keep.id}`);
    expect(notes.body).toHaveLength(2);
    expect(notes.body.find((n: any) => n.ticketId === closedTicket.id).note).toBe('called back');
    expect(notes.body.find((n: any) => n.ticketId === openTicket.id)).toMatchObject({
      userId: 0,
      note: expect.stringMatching(/mesclar/),
    });
    expect((await get(co, `/schedules?contactId=${keep.id}`)).body.schedules.map((s: any) => s.id)).toEqual([
      schedule.body.id,
    ]);
    const members = await get(co, `/contact-list-items?contactListId=${list.body.id}`);
    expect(members.body.contacts.map((m: any) => m.number)).toEqual([keepNumber]);

    // recorded on the audit trail with both ids and the counts
    const trail = await get(co, '/audit?action=contact.merged');
    expect(trail.body.entries[0]).toMatchObject({
      action: 'contact.merged',
      target: { type: 'contact', id: keep.id },
      changes: { keptId: keep.id, mergedId: other.id, counts: { tickets: 2, messages: 4 } },
    });

    // a second request for the same merge answers the outcome and changes nothing
    const again = await post(co, `/contacts/${keep.id}/merge`, { otherId: other.id });
    expect(again.status).toBe(200);
    expect(again.body.counts.messages).toBe(4);
    expect(await allMessages(co, keepTicket.id)).toHaveLength(5);
    // the customer writes again from the merged number: it reaches the kept contact's open ticket
    await sim.send({ from: otherNumber, body: 'after merge' });
    await eventually(async () => (await allMessages(co, keepTicket.id)).some((m: any) => m.body === 'after merge'));
  });

  it('a merge interrupted halfway and run again ends with every item moved once', async () => {
    const co = await newCompany('mergecrash');
    const w = await createWhatsapp(co);
    const sim = phone(co.companyId, w.id);
    const keep = await createContact(co.adminToken, { name: 'Kept', number: '5511972223333' });
    const otherNumber = '5511972224444';
    for (let i = 0; i < 30; i++) await sim.send({ from: otherNumber, pushName: 'Other', body: `m${i}` });
    const other = await contactByNumber(co, otherNumber);
    const ticket = await ticketOfContact(co, other.id);
    await eventually(async () => (await allMessages(co, ticket.id)).length === 30);
    for (const n of ['first note', 'second note'])
      await post(co, '/ticket-notes', { note: n, ticketId: ticket.id, contactId: other.id });

    // the process dies after the first page of messages moved (25 of 30)
    await expect(fns.mergeContacts(co.companyId, keep.id, other.id, { failAfter: 25 })).rejects.toThrow(/injected/);
    expect((await get(co, `/contacts/${other.id}`)).status).toBe(200);
    // a merge of either contact with a third one waits for this one
    const third = await createContact(co.adminToken);
    expect((await post(co, `/contacts/${third.id}/merge`, { otherId: other.id })).body.error).toBe(
      'ERR_MERGE_IN_PROGRESS',
    );
    expect((await post(co, `/contacts/${other.id}/merge`, { otherId: keep.id })).body.error).toBe(
      'ERR_MERGE_IN_PROGRESS',
    );

    // dies again, inside the tickets step this time
    await expect(fns.mergeContacts(co.companyId, keep.id, other.id, { failAfter: 6 })).rejects.toThrow(/injected/);

    const done = await post(co, `/contacts/${keep.id}/merge`, { otherId: other.id });
    expect(done.status).toBe(200);
    expect(done.body.counts).toMatchObject({ tickets: 1, messages: 30, notes: 2, closedTickets: 0 });
    const history = await allMessages(co, ticket.id);
    expect(history).toHaveLength(30);
    expect(new Set(history.map((m: any) => m.body)).size).toBe(30);
    expect((await get(co, `/tickets/${ticket.id}`)).body.contactId).toBe(keep.id);
    const notes = await get(co, `/ticket-notes/list?contactId=${keep.id}`);
    expect(notes.body.map((n: any) => n.note).sort()).toEqual(['first note', 'second note']);
    expect((await get(co, `/contacts/${other.id}`)).status).toBe(404);
  });
});

describe('automatic merge', () => {
  it('the session learns a lid is a number: the lid-only contact merges into the number contact, once', async () => {
    const co = await newCompany('automerge');
    const w = await createWhatsapp(co);
    const sim = phone(co.companyId, w.id);
    const number = '5511973335555';
    const lid = '77665544332211';
    await sim.send({ from: `${lid}@lid`, pushName: 'Bia', body: 'from the lid' });
    const lidContact = await eventually(async () => {
      const res = await get(co, '/contacts?searchParam=Bia');
      return res.body.contacts?.find((c: any) => c.lid === lid);
    });
    const lidTicket = await ticketOfContact(co, lidContact.id);
    await sim.send({ from: number, pushName: 'Bia Souza', body: 'from the number' });
    const numberContact = await contactByNumber(co, number);
    expect(numberContact.id).not.toBe(lidContact.id);

    await sim.lidMapping(lid, number);
    await eventually(async () => (await get(co, `/contacts/${lidContact.id}`)).status === 404);
    const kept = (await get(co, `/contacts/${numberContact.id}`)).body;
    expect(kept.lid).toBe(lid);
    expect((await get(co, `/tickets/${lidTicket.id}`)).body.contactId).toBe(numberContact.id);
    const trail = await get(co, '/audit?action=contact.merged');
    expect(trail.body.entries).toHaveLength(1);
    expect(trail.body.entries[0].changes).toMatchObject({
      keptId: numberContact.id,
      mergedId: lidContact.id,
      automatic: true,
    });

    // the event delivered again changes nothing
    const event = {
      type: 'lidMapping' as const,
      companyId: co.companyId,
      whatsappId: w.id,
      lid: `${lid}@lid`,
      pn: `${number}@s.whatsapp.net`,
    };
    await fns.handleInbound(event);
    await fns.handleInbound(event);
    expect((await get(co, '/audit?action=contact.merged')).body.entries).toHaveLength(1);
    const contacts = await get(co, '/contacts');
    expect(contacts.body.contacts.filter((c: any) => c.id === numberContact.id || c.id === lidContact.id)).toHaveLength(
      1,
    );
    const numberTicket = await ticketOfContact(co, numberContact.id);
    expect(await allMessages(co, numberTicket.id)).toHaveLength(2);

    // the lid writes again: the kept contact's ticket
    await sim.send({ from: `${lid}@lid`, body: 'lid again' });
    await eventually(async () => (await allMessages(co, numberTicket.id)).some((m: any) => m.body === 'lid again'));
    expect(await allMessages(co, numberTicket.id)).toHaveLength(3);
  });

  it('a message naming both ids, whose lid another contact holds, merges the two as well', async () => {
    const co = await newCompany('automsg');
    const w = await createWhatsapp(co);
    const sim = phone(co.companyId, w.id);
    const number = '5511974446666';
    const lid = '66554433221100';
    await sim.send({ from: `${lid}@lid`, pushName: 'Caio', body: 'lid only' });
    const lidContact = await eventually(async () => {
      const res = await get(co, '/contacts?searchParam=Caio');
      return res.body.contacts?.find((c: any) => c.lid === lid);
    });
    await sim.send({ from: number, pushName: 'Caio', body: 'number only' });
    const numberContact = await contactByNumber(co, number);
    // WhatsApp now sends from the lid with the number as the alternate id
    await sim.send({ from: number, lid: `${lid}@lid`, body: 'both' });
    await eventually(async () => (await get(co, `/contacts/${lidContact.id}`)).status === 404);
    const ticket = await ticketOfContact(co, numberContact.id);
    const bodies = (await allMessages(co, ticket.id)).map((m: any) => m.body);
    expect(bodies).toEqual(expect.arrayContaining(['lid only', 'number only', 'both']));
  });
});
