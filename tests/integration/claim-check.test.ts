import { describe, expect, it } from 'vitest';
import { api, newCompany } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';

/**
 * An inbound event larger than SQS takes (256 KiB; the local queue refuses it as SQS does) goes
 * through storage as a claim check and is handled as if it had come itself (issue 37, item 5; R11
 * of whatsapp-review-3: such an event was refused by the queue and lost).
 */
describe('inbound events larger than the queue takes', () => {
  it("a customer's 300 KB message reaches the ticket whole", async () => {
    const co = await newCompany('claimcheck');
    const line = await connectedWhatsapp(co.adminToken, co.companyId);
    const body = `início ${'palavra '.repeat(40_000)}fim`;
    expect(Buffer.byteLength(body)).toBeGreaterThan(300 * 1024);
    await phone(co.companyId, line.id).send({ from: '5511977776666', body });
    const stored = await eventually(async () => {
      const list = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
      const ticket = (list.body.tickets as any[])[0];
      if (!ticket) return undefined;
      const messages = (await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages as any[];
      return messages.find((m) => !m.fromMe);
    }, 20_000);
    expect(stored.body.length).toBe(body.length);
    expect(stored.body.endsWith('fim')).toBe(true);
  });
});
