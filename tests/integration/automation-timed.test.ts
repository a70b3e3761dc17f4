import { describe, expect, it } from 'vitest';
// runs the automation timer in this process, as its Lambda does, with a clock moved past the wait
import '../../functions/lib/startup';
import { api, newCompany, queuesIdle, table, usesTimers } from './helpers';
import { randomNumber } from './fixtures';
import { eventually, phone } from './whatsapp-sim';
import { runAutomationTimer } from '../../functions/lib/automation/timer';
import { runSlaTimer } from '../../functions/lib/sla/breach';
import { createContact, createQueue } from './fixtures';
import {
  automationTeam,
  createTag,
  newTicket,
  ok,
  rule,
  runsOfTicket,
  ticketNow,
  type AutomationTeam,
} from './automation-support';

usesTimers('automation', 'sla');

/**
 * Time in automation rules (issue 40 item 2): a `wait` stores the rest of a rule's actions and the
 * timer resumes them when their time comes; `no_agent_reply` / `no_customer_reply` fire N minutes
 * after the message that started the silence, and only when nobody answered meanwhile. The timer
 * runs here with its clock moved; nothing waits out real time.
 */
const MIN = 60_000;
const later = (ms: number) => new Date(Date.now() + ms);
const tagIds = async (tm: AutomationTeam, id: number) => (await ticketNow(tm.co, id)).tags.map((t: any) => t.id);

/** A customer writes; the admin takes the ticket. */
async function customerTicket(tm: AutomationTeam) {
  const customer = randomNumber();
  const p = phone(tm.co.companyId, tm.whatsapp.id);
  await p.send({ from: customer, body: 'oi' });
  const t = await eventually(async () => {
    const list = await api('GET', '/tickets?status=pending&showAll=true', { token: tm.co.adminToken });
    return (list.body.tickets as any[]).find((x) => x.contact.number === customer);
  });
  await queuesIdle(tm.co.companyId);
  return { id: t.id as number, customer, p };
}
const reply = async (tm: AutomationTeam, id: number, body: string) =>
  ok(await api('POST', `/messages/${id}`, { token: tm.co.adminToken, body: { body } }), 201, 'reply');

describe('automation: waits and timed events', () => {
  it('a wait stores the remaining actions; the timer resumes them only when their time comes, logged as a run', async () => {
    const co = await newCompany('at-wait');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    const r = await rule(co, {
      name: 'Depois',
      event: { type: 'ticket_created' },
      actions: [
        { type: 'add_note', body: 'primeiro' },
        { type: 'wait', minutes: 10 },
        { type: 'add_tag', tagId: tag.id },
      ],
    });
    const t = await newTicket(tm);
    const [first] = await runsOfTicket(co, t.id);
    expect(first.actions).toEqual([
      { type: 'add_note', outcome: 'done' },
      { type: 'wait', outcome: 'waiting' },
    ]);
    expect(await tagIds(tm, t.id)).toEqual([]);

    await runAutomationTimer(later(5 * MIN));
    expect(await tagIds(tm, t.id)).toEqual([]);
    await runAutomationTimer(later(11 * MIN));
    await queuesIdle(co.companyId);
    expect(await tagIds(tm, t.id)).toEqual([tag.id]);
    const runs = await runsOfTicket(co, t.id);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({
      ruleId: r.id,
      matched: ['resumed after wait'],
      actions: [{ type: 'add_tag', outcome: 'done' }],
    });
    // resumed once: the due item is gone
    await runAutomationTimer(later(12 * MIN));
    expect(await runsOfTicket(co, t.id)).toHaveLength(2);
  });

  it('no_agent_reply fires N minutes after the customer wrote when nobody answered, and not when an attendant answered in time', async () => {
    const co = await newCompany('at-agent');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    await rule(co, {
      name: 'Sem resposta',
      event: { type: 'no_agent_reply', minutes: 10 },
      actions: [{ type: 'add_tag', tagId: tag.id }],
    });
    const silent = await customerTicket(tm);
    const answered = await customerTicket(tm);
    ok(await api('PUT', `/tickets/${answered.id}`, { token: co.adminToken, body: { status: 'open' } }), 200, 'accept');
    await reply(tm, answered.id, 'Olá, em que posso ajudar?');
    await queuesIdle(co.companyId);

    await runAutomationTimer(later(5 * MIN));
    expect(await tagIds(tm, silent.id)).toEqual([]);
    await runAutomationTimer(later(11 * MIN));
    await queuesIdle(co.companyId);
    expect(await tagIds(tm, silent.id)).toEqual([tag.id]);
    expect(await tagIds(tm, answered.id)).toEqual([]);
    expect((await runsOfTicket(co, silent.id)).map((x) => x.event)).toEqual(['no_agent_reply']);
    expect(await runsOfTicket(co, answered.id)).toEqual([]);
  });

  it('no_customer_reply fires N minutes after an attendant wrote when the customer kept silent, and not when they answered', async () => {
    const co = await newCompany('at-customer');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    await rule(co, {
      name: 'Cliente sumiu',
      event: { type: 'no_customer_reply', minutes: 5 },
      actions: [{ type: 'add_tag', tagId: tag.id }],
    });
    const silent = await customerTicket(tm);
    const answered = await customerTicket(tm);
    for (const t of [silent, answered]) {
      ok(await api('PUT', `/tickets/${t.id}`, { token: co.adminToken, body: { status: 'open' } }), 200, 'accept');
      await reply(tm, t.id, 'Pode me mandar o número do pedido?');
    }
    await queuesIdle(co.companyId);
    const due = await table().get(`C#${co.companyId}`, `TICKET#${String(silent.id).padStart(10, '0')}`);
    expect(due?.agentMessageAt).toBeTruthy();
    await answered.p.send({ from: answered.customer, body: '12345' });
    await queuesIdle(co.companyId);

    await runAutomationTimer(later(6 * MIN));
    await queuesIdle(co.companyId);
    expect(await tagIds(tm, silent.id)).toEqual([tag.id]);
    expect(await tagIds(tm, answered.id)).toEqual([]);
  });

  it('sla_breached: a breach found by the service-level timer starts the rules listening for it', async () => {
    const co = await newCompany('at-sla');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    const q = await createQueue(co.adminToken, { slaFirstResponseMinutes: 10 });
    await rule(co, {
      name: 'Atrasado',
      event: { type: 'sla_breached' },
      actions: [{ type: 'add_tag', tagId: tag.id }],
    });
    const contact = await createContact(co.adminToken);
    const t = ok<any>(
      await api('POST', '/tickets', {
        token: co.adminToken,
        body: { status: 'open', contactId: contact.id, whatsappId: tm.whatsapp.id, queueId: q.id, userId: tm.ana.id },
      }),
      201,
      'ticket',
    );
    await runSlaTimer(later(5 * MIN));
    await queuesIdle(co.companyId);
    expect(await tagIds(tm, t.id)).toEqual([]);
    await runSlaTimer(new Date(Date.parse(t.slaFirstResponseDueAt) + MIN));
    await queuesIdle(co.companyId);
    expect(await tagIds(tm, t.id)).toEqual([tag.id]);
    expect((await runsOfTicket(co, t.id)).map((r) => r.event)).toEqual(['sla_breached']);
  });
});
