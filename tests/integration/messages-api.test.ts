import { describe, it, expect } from 'vitest';
import { api, baseUrl, newCompany, realtimeClient, queuesIdle } from './helpers';
import { connectedWhatsapp, eventually, phone, sim } from './whatsapp-sim';

const send = (token: string, body: unknown) =>
  api('POST', '/messages/send', { headers: { authorization: `Bearer ${token}` }, body });

describe('external messages API (POST /api/messages/send)', () => {
  it('a JSON {number, body} with the connection token reaches the phone and opens a ticket', async () => {
    const co = await newCompany('xapi');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const res = await send(w.token, { number: '+55 (11) 96666-0001', body: 'Your order has shipped' });
    expect(res.status).toBe(200);
    expect(res.body.messages[0]).toMatchObject({ body: 'Your order has shipped', fromMe: true });
    const out = await eventually(async () =>
      (await phone(co.companyId, w.id).outbound()).find((o) => o.body === 'Your order has shipped'),
    );
    expect(out.to).toBe('5511966660001@s.whatsapp.net');
    const created = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.body === 'Your order has shipped',
    );
    expect(created.data.ticket.contact.number).toBe('5511966660001');
    // a second message reuses the ticket
    await send(w.token, { number: '5511966660001', body: 'Tracking code: X1' });
    const second = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.body === 'Tracking code: X1',
    );
    expect(second.data.ticket.id).toBe(created.data.ticket.id);
    rt.close();
  });

  it('a number that is not on WhatsApp is ERR_WAPP_INVALID_CONTACT', async () => {
    const co = await newCompany('xapinv');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    await sim('POST', '/absent', { number: '5511900001234' });
    const res = await send(w.token, { number: '5511900001234', body: 'hello?' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
  });

  it('a wrong or missing token is 401; bad input is ERR_VALIDATION; a disconnected connection is ERR_WAPP_NOT_INITIALIZED', async () => {
    const co = await newCompany('xapiauth');
    expect((await send('not-a-token', { number: '5511966660002', body: 'x' })).status).toBe(401);
    expect((await api('POST', '/messages/send', { body: { number: '5511966660002', body: 'x' } })).status).toBe(401);
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const bad = await send(w.token, { number: 'abc', body: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    await api('DELETE', `/whatsappsession/${w.id}`, { token: co.adminToken });
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'DISCONNECTED',
    );
    const down = await send(w.token, { number: '5511966660002', body: 'x' });
    expect(down.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('the API authenticates by the token hash: the shown token works, the masked one and a rotated-out one do not', async () => {
    const co = await newCompany('xapihash');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const masked = (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.token as string;
    expect(masked).not.toBe(w.token);
    expect((await send(masked, { number: '5511966660004', body: 'x' })).status).toBe(401);
    const fresh = 'rotated-token-abcdefghijklmnop';
    expect((await api('PUT', `/whatsapp/${w.id}`, { token: co.adminToken, body: { token: fresh } })).status).toBe(200);
    const old = await send(w.token, { number: '5511966660004', body: 'x' });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await send(fresh, { number: '5511966660004', body: 'rotated works' })).status).toBe(200);
  });

  it('multipart with medias: the file is stored under the company prefix and sent as a document with the body', async () => {
    const co = await newCompany('xapimedia');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const form = new FormData();
    form.set('number', '5511966660003');
    form.set('body', 'Your invoice');
    form.append('medias', new Blob([Buffer.from('%PDF-1.4 invoice')], { type: 'application/pdf' }), 'invoice.pdf');
    const res = await fetch(`${baseUrl()}/api/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    await queuesIdle();
    const out = await eventually(async () => (await phone(co.companyId, w.id).outbound()).find((o) => o.media));
    expect(out.media).toMatchObject({ mimetype: 'application/pdf', fileName: 'invoice.pdf', kind: 'document' });
    expect(out.media.key).toMatch(new RegExp(`^company${co.companyId}/`));
    expect(out.body).toBe('Your invoice');
  });
});

describe('incoming calls', () => {
  it('with the call setting disabled the call is rejected, logged as call_log and the contact asked to write', async () => {
    const co = await newCompany('calls');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const { callId } = await phone(co.companyId, w.id).call('5511966660004');
    const log = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.mediaType === 'call_log',
      8000,
    );
    expect(log.data.message.body).toMatch(/perdida/);
    await eventually(async () =>
      (await phone(co.companyId, w.id).outbound()).some((o) => /chamadas de voz/.test(o.body)),
    );
    const state = await phone(co.companyId, w.id).call('5511966660004');
    expect(state.rejected).toContain(callId);
    rt.close();
  });

  it("a call from a contact's LID that names its number lands on the existing contact, not a lid-only twin", async () => {
    const co = await newCompany('calls-lid');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const number = '5511966660005';
    const created = await api('POST', '/contacts', { token: co.adminToken, body: { name: 'Known caller', number } });
    await phone(co.companyId, w.id).call('123456789012345@lid', `${number}@s.whatsapp.net`);
    const tickets = await eventually(async () => {
      const res = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
      return res.body.tickets?.length ? res.body.tickets : undefined;
    });
    expect(tickets.map((t: any) => t.contactId)).toEqual([created.body.id]);
    const contacts = await api('GET', '/contacts', { token: co.adminToken });
    expect(contacts.body.contacts).toHaveLength(1);
  });
});
