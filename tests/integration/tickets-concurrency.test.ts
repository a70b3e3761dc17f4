import { describe, it, expect } from 'vitest';
import { api, newCompany } from './helpers';
import { createContact, createWhatsapp, randomNumber } from './fixtures';
import { findOrCreateTicket } from '../../functions/lib/tickets/service';
import { updateContact, upsertContactFromWhatsApp } from '../../functions/lib/contacts/service';
import { storeInboundMessage } from '../../functions/lib/messages/inbound';
import type { InboundMessage } from '../../shared/whatsapp-protocol';

/**
 * The service contract the inbound pipeline relies on, called directly (as the queue consumer does)
 * against the same local table, with concurrent calls.
 */
describe('inbound service contract under concurrency', () => {
  it('findOrCreateTicket: concurrent calls for one contact and connection return one ticket, created once', async () => {
    const co = await newCompany('cc1');
    const w = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        findOrCreateTicket(co.companyId, { contactId: contact.id, whatsappId: w.id, isGroup: false, fromMe: false }),
      ),
    );
    expect(new Set(results.map((r) => r.ticket.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.ticket).toMatchObject({
      status: 'pending',
      userId: null,
      contactId: contact.id,
      whatsappId: w.id,
    });
    // the API sees the same one holding the contact
    const again = await api('POST', '/tickets', {
      token: co.adminToken,
      body: { contactId: contact.id, whatsappId: w.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.details.ticket.id).toBe(results[0]!.ticket.id);
  });

  it('upsertContactFromWhatsApp: one customer is one contact, by number or by lid, even when messages arrive at once', async () => {
    const co = await newCompany('cc2');
    const number = randomNumber();
    const lid = `${Date.now()}${Math.floor(Math.random() * 1000)}@lid`;
    const contacts = await Promise.all([
      upsertContactFromWhatsApp(co.companyId, { number, name: 'Paula', isGroup: false }),
      upsertContactFromWhatsApp(co.companyId, {
        number: `${number}@s.whatsapp.net`,
        lid,
        name: 'Paula',
        isGroup: false,
      }),
      upsertContactFromWhatsApp(co.companyId, { number, lid, isGroup: false }),
      upsertContactFromWhatsApp(co.companyId, { number, isGroup: false }),
    ]);
    expect(new Set(contacts.map((c) => c.id)).size).toBe(1);
    const byLidOnly = await upsertContactFromWhatsApp(co.companyId, { number: '', lid, isGroup: false });
    expect(byLidOnly.id).toBe(contacts[0]!.id);
    const stored = await api('GET', `/contacts/${contacts[0]!.id}`, { token: co.adminToken });
    expect(stored.body).toMatchObject({ number, lid: lid.split('@')[0] });
    expect((await api('GET', '/contacts', { token: co.adminToken })).body.count).toBe(1);
  });

  it('two updates of one contact at once (a lid learned, a picture changed) both stay', async () => {
    const co = await newCompany('cc4');
    const contact = await createContact(co.adminToken);
    for (let round = 0; round < 10; round++) {
      const lid = `${Date.now()}${round}`;
      const picture = `https://pps.whatsapp.net/p${round}.jpg`;
      await Promise.all([
        updateContact(co.companyId, contact.id, { lid }),
        updateContact(co.companyId, contact.id, { profilePicUrl: picture }),
      ]);
      const stored = await api('GET', `/contacts/${contact.id}`, { token: co.adminToken });
      expect(stored.body, `round ${round}`).toMatchObject({ lid, profilePicUrl: picture });
    }
  });

  it('storeInboundMessage: a redelivered WhatsApp id is stored once and counted unread once, even concurrently', async () => {
    const co = await newCompany('cc3');
    const w = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const { ticket } = await findOrCreateTicket(co.companyId, {
      contactId: contact.id,
      whatsappId: w.id,
      isGroup: false,
      fromMe: false,
    });
    const message: InboundMessage = {
      wid: `WID${Date.now()}`,
      chatJid: `${contact.number}@s.whatsapp.net`,
      fromMe: false,
      isGroup: false,
      body: 'hello once',
      mediaType: 'chat',
      timestamp: Math.floor(Date.now() / 1000),
    };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => storeInboundMessage(co.companyId, ticket, message)),
    );
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(new Set(results.map((r) => r.message.id)).size).toBe(1);
    const page = await api('GET', `/messages/${ticket.id}`, { token: co.adminToken });
    expect(page.body.messages.map((m: any) => m.body)).toEqual(['hello once']);
    // GET /messages reset the counter; the ticket response before reading had one unread
    expect(results.find((r) => !r.duplicate)!.ticket.unreadMessages).toBe(1);
  });
});
