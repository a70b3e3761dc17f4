import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { api, newCompany, queuesIdle, realtimeClient } from './helpers';
import { eventually, phone } from './whatsapp-sim';
import { randomNumber } from './fixtures';
import { AUTOMATION_ACTIONS_PER_TICKET_HOUR } from '../../shared/schemas/automation';
import { automationTeam, createTag, newTicket, ok, rule, runsOfTicket, ticketNow } from './automation-support';

/**
 * Automation rules at work (issue 40 item 2): each event starts the rules listening for it, their
 * conditions are read on the ticket as it is, their actions run as the system (the stored result and
 * the realtime event checked), every run is logged per rule and per ticket, a rule never loops, and a
 * ticket takes at most AUTOMATION_ACTIONS_PER_TICKET_HOUR actions an hour.
 */

const messagesOf = async (token: string, ticketId: number) =>
  ok<any>(await api('GET', `/messages/${ticketId}`, { token }), 200, 'messages').messages as any[];

describe('automation: events, conditions and actions', () => {
  it('ticket_created: its actions run as the system (tag, ticket field, note with variables, assignee), logged per rule and per ticket, live', async () => {
    const co = await newCompany('auto-created');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    ok(
      await api('POST', '/custom-fields', {
        token: co.adminToken,
        body: { entity: 'ticket', name: 'Prioridade', key: 'prioridade', type: 'text' },
      }),
      201,
      'field',
    );
    const r = await rule(co, {
      name: 'Triagem',
      event: { type: 'ticket_created' },
      conditions: [
        { type: 'status', op: 'in', values: ['open'] },
        { type: 'queue', op: 'in', ids: [tm.queue.id] },
      ],
      actions: [
        { type: 'add_tag', tagId: tag.id },
        { type: 'set_field', entity: 'ticket', key: 'prioridade', value: 'alta' },
        { type: 'add_note', body: 'Cliente {{name}} chegou' },
        { type: 'assign_user', userId: tm.ana.id },
      ],
    });
    const rt = await realtimeClient(tm.ana.token);
    try {
      const t = await newTicket(tm);
      const after = await ticketNow(co, t.id);
      expect(after.tags.map((x: any) => x.id)).toEqual([tag.id]);
      expect(after.customFields).toMatchObject({ prioridade: 'alta' });
      expect(after.userId).toBe(tm.ana.id);
      const notes = ok<any[]>(
        await api('GET', `/ticket-notes/list?contactId=${t.contactId}&ticketId=${t.id}`, { token: co.adminToken }),
        200,
        'notes',
      );
      expect(notes.map((x) => x.note)).toContain('Cliente Maria Souza chegou');

      const runs = await runsOfTicket(co, t.id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        ruleId: r.id,
        macroId: null,
        name: 'Triagem',
        ticketId: t.id,
        event: 'ticket_created',
        matched: ['status in open', `queue in ${tm.queue.id}`],
        actions: [
          { type: 'add_tag', outcome: 'done' },
          { type: 'set_field', outcome: 'done' },
          { type: 'add_note', outcome: 'done' },
          { type: 'assign_user', outcome: 'done' },
        ],
      });
      const byRule = ok<any>(await api('GET', `/automation-rules/${r.id}/runs`, { token: co.adminToken }), 200, 'runs');
      expect(byRule.runs.map((x: any) => x.id)).toEqual([runs[0].id]);
      // Ana sees the ticket now: she hears of the run
      const live = await rt.waitFor((e) => e.event === `company-${co.companyId}-automationRun`);
      expect(live.data.run.id).toBe(runs[0].id);
    } finally {
      rt.close();
    }
  });

  it('conditions that do not hold run nothing and log nothing; an inactive rule never runs', async () => {
    const co = await newCompany('auto-nomatch');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    await rule(co, {
      name: 'Só pendentes',
      event: { type: 'ticket_created' },
      conditions: [{ type: 'status', op: 'in', values: ['pending'] }],
      actions: [{ type: 'add_tag', tagId: tag.id }],
    });
    await rule(co, {
      name: 'Outra fila',
      event: { type: 'ticket_created' },
      conditions: [{ type: 'queue', op: 'in', ids: [tm.other.id] }],
      actions: [{ type: 'add_tag', tagId: tag.id }],
    });
    await rule(co, {
      name: 'Desligada',
      active: false,
      event: { type: 'ticket_created' },
      actions: [{ type: 'add_tag', tagId: tag.id }],
    });
    const t = await newTicket(tm);
    expect((await ticketNow(co, t.id)).tags).toEqual([]);
    expect(await runsOfTicket(co, t.id)).toEqual([]);
  });

  it('ticket_assigned, ticket_transferred and ticket_closed each start their rules', async () => {
    const co = await newCompany('auto-moves');
    const tm = await automationTeam(co);
    const [assigned, transferred, closed] = [await createTag(co), await createTag(co), await createTag(co)];
    await rule(co, {
      name: 'a',
      event: { type: 'ticket_assigned' },
      actions: [{ type: 'add_tag', tagId: assigned.id }],
    });
    await rule(co, {
      name: 't',
      event: { type: 'ticket_transferred' },
      actions: [{ type: 'add_tag', tagId: transferred.id }],
    });
    await rule(co, { name: 'c', event: { type: 'ticket_closed' }, actions: [{ type: 'add_note', body: 'fechado' }] });
    // a pending ticket in the queue, then taken by Ana
    const t = await newTicket(tm);
    ok(
      await api('PUT', `/tickets/${t.id}`, { token: co.adminToken, body: { status: 'pending', userId: null } }),
      200,
      'return',
    );
    await queuesIdle(co.companyId);
    ok(await api('PUT', `/tickets/${t.id}`, { token: tm.ana.token, body: { status: 'open' } }), 200, 'accept');
    await queuesIdle(co.companyId);
    expect((await ticketNow(co, t.id)).tags.map((x: any) => x.id)).toEqual([assigned.id]);
    ok(
      await api('PUT', `/tickets/${t.id}`, {
        token: co.adminToken,
        body: { queueId: tm.other.id, userId: null, status: 'pending' },
      }),
      200,
      'transfer',
    );
    await queuesIdle(co.companyId);
    expect((await ticketNow(co, t.id)).tags.map((x: any) => x.id).sort()).toEqual([assigned.id, transferred.id].sort());
    ok(await api('PUT', `/tickets/${t.id}`, { token: co.adminToken, body: { status: 'closed' } }), 200, 'close');
    await queuesIdle(co.companyId);
    const events = (await runsOfTicket(co, t.id)).map((r) => r.event);
    expect(events.sort()).toEqual(['ticket_assigned', 'ticket_closed', 'ticket_transferred']);
    expect(closed).toBeDefined();
  });

  it('message_received: contains (accents and case aside) and matches read the customer message; send_message fills the variables; set_status closes with a message', async () => {
    const co = await newCompany('auto-message');
    const tm = await automationTeam(co);
    await rule(co, {
      name: 'Preço',
      event: { type: 'message_received' },
      conditions: [{ type: 'message', op: 'contains', value: 'PRECO' }],
      actions: [{ type: 'send_message', body: 'Olá {{firstName}}, nossa tabela segue em instantes.' }],
    });
    await rule(co, {
      name: 'Pedido',
      event: { type: 'message_received' },
      conditions: [{ type: 'message', op: 'matches', value: '^pedido\\s+\\d{4}$' }],
      actions: [{ type: 'set_status', status: 'closed', message: 'Pedido recebido, obrigado!' }],
    });
    const customer = randomNumber();
    const p = phone(co.companyId, tm.whatsapp.id);
    await p.send({ from: customer, body: 'Qual o preço?', pushName: 'Joana Lima' });
    const ticket = await eventually(async () => {
      const list = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
      return (list.body.tickets as any[]).find((t) => t.contact.number === customer);
    });
    await queuesIdle(co.companyId);
    const sent = await eventually(async () =>
      (await messagesOf(co.adminToken, ticket.id)).find((m) => m.fromMe && m.body.includes('tabela')),
    );
    expect(sent).toMatchObject({ body: 'Olá Joana, nossa tabela segue em instantes.', automatic: true });
    expect((await runsOfTicket(co, ticket.id)).map((r) => r.name)).toEqual(['Preço']);

    // does not match: nothing more; then one that does closes the ticket with its message
    await p.send({ from: customer, body: 'pedido 12' });
    await queuesIdle(co.companyId);
    expect((await ticketNow(co, ticket.id)).status).toBe('pending');
    await p.send({ from: customer, body: 'Pedido 1234' });
    await queuesIdle(co.companyId);
    expect((await ticketNow(co, ticket.id)).status).toBe('closed');
    expect((await messagesOf(co.adminToken, ticket.id)).some((m) => m.body === 'Pedido recebido, obrigado!')).toBe(
      true,
    );
  });

  it('tag_added with a tag condition; remove_tag and assign_queue with round robin; a webhook through the outbound guard to a local receiver', async () => {
    const co = await newCompany('auto-tags');
    const tm = await automationTeam(co);
    const [vip, novo] = [await createTag(co), await createTag(co)];
    const received: any[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    // Ana online: the round robin may hand her tickets
    const online = await realtimeClient(tm.ana.token);
    try {
      const port = (server.address() as AddressInfo).port;
      await rule(co, {
        name: 'VIP',
        event: { type: 'tag_added' },
        conditions: [{ type: 'tag', op: 'in', ids: [vip.id] }],
        actions: [
          { type: 'remove_tag', tagId: novo.id },
          { type: 'assign_queue', queueId: tm.other.id, roundRobin: true },
          { type: 'webhook', url: `http://127.0.0.1:${port}/hook` },
        ],
      });
      const t = await newTicket(tm);
      ok(await api('PUT', `/ticket-tags/${t.id}/${novo.id}`, { token: co.adminToken }), 200, 'tag novo');
      await queuesIdle(co.companyId);
      expect(await runsOfTicket(co, t.id)).toEqual([]);
      ok(await api('PUT', `/ticket-tags/${t.id}/${vip.id}`, { token: co.adminToken }), 200, 'tag vip');
      await queuesIdle(co.companyId);
      const after = await ticketNow(co, t.id);
      expect(after.tags.map((x: any) => x.id)).toEqual([vip.id]);
      expect(after.queueId).toBe(tm.other.id);
      // Ana is in that queue and has room: the round robin hands it to her
      expect(after.userId).toBe(tm.ana.id);
      const [run] = await runsOfTicket(co, t.id);
      expect(run.actions.slice(0, 2)).toEqual([
        { type: 'remove_tag', outcome: 'done' },
        { type: 'assign_queue', outcome: 'done' },
      ]);
      // through the outbound guard (the local stack lets it reach loopback fakes: PROVIDER_PRIVATE_URLS)
      expect(run.actions[2]).toEqual({ type: 'webhook', outcome: 'done' });
      expect(received[0]).toMatchObject({ event: 'tag_added', ruleId: run.ruleId, ticket: { id: t.id } });
    } finally {
      online.close();
      server.close();
    }
  });
});

describe('automation: loop guard and hourly cap', () => {
  it('two rules that would ping-pong tags forever stop: each runs once on the chain', async () => {
    const co = await newCompany('auto-loop');
    const tm = await automationTeam(co);
    const [a, b] = [await createTag(co), await createTag(co)];
    await rule(co, {
      name: 'A->B',
      event: { type: 'tag_added' },
      conditions: [{ type: 'tag', op: 'in', ids: [a.id] }],
      actions: [
        { type: 'remove_tag', tagId: a.id },
        { type: 'add_tag', tagId: b.id },
      ],
    });
    await rule(co, {
      name: 'B->A',
      event: { type: 'tag_added' },
      conditions: [{ type: 'tag', op: 'in', ids: [b.id] }],
      actions: [
        { type: 'remove_tag', tagId: b.id },
        { type: 'add_tag', tagId: a.id },
      ],
    });
    const t = await newTicket(tm);
    ok(await api('PUT', `/ticket-tags/${t.id}/${a.id}`, { token: co.adminToken }), 200, 'tag');
    await queuesIdle(co.companyId);
    const runs = await runsOfTicket(co, t.id);
    expect(runs.map((r) => r.name).sort()).toEqual(['A->B', 'B->A']);
    // 4 actions in all, and it ended where B->A left it
    expect(runs.flatMap((r) => r.actions).filter((x) => x.outcome === 'done')).toHaveLength(4);
    expect((await ticketNow(co, t.id)).tags.map((x: any) => x.id)).toEqual([a.id]);
  });

  it('a chain of rules deeper than MAX_AUTOMATION_CHAIN is cut', async () => {
    const co = await newCompany('auto-chain');
    const tm = await automationTeam(co);
    const tags = [];
    for (let i = 0; i < 6; i++) tags.push(await createTag(co));
    for (let i = 0; i < 5; i++)
      await rule(co, {
        name: `step ${i}`,
        event: { type: 'tag_added' },
        conditions: [
          { type: 'tag', op: 'in', ids: [tags[i]!.id] },
          { type: 'tag', op: 'not_in', ids: [tags[i + 1]!.id] },
        ],
        actions: [{ type: 'add_tag', tagId: tags[i + 1]!.id }],
      });
    const t = await newTicket(tm);
    ok(await api('PUT', `/ticket-tags/${t.id}/${tags[0]!.id}`, { token: co.adminToken }), 200, 'tag');
    await queuesIdle(co.companyId);
    // the user's event, then chains of 1, 2 and 3 rules are evaluated; the fifth rule's event (a chain of 4) is not
    expect((await runsOfTicket(co, t.id)).map((r) => r.name).sort()).toEqual(['step 0', 'step 1', 'step 2', 'step 3']);
    expect((await ticketNow(co, t.id)).tags).toHaveLength(5);
  });

  it(`at most ${AUTOMATION_ACTIONS_PER_TICKET_HOUR} actions run on a ticket in an hour: the rest are logged skipped, capped`, async () => {
    const co = await newCompany('auto-cap');
    const tm = await automationTeam(co);
    const notes = Array.from({ length: 20 }, (_, i) => ({ type: 'add_note', body: `n${i}` }));
    await rule(co, { name: 'one', event: { type: 'ticket_created' }, actions: notes });
    await rule(co, { name: 'two', event: { type: 'ticket_created' }, actions: notes });
    const t = await newTicket(tm);
    const outcomes = (await runsOfTicket(co, t.id)).flatMap((r) => r.actions);
    expect(outcomes.filter((x) => x.outcome === 'done')).toHaveLength(AUTOMATION_ACTIONS_PER_TICKET_HOUR);
    expect(outcomes.filter((x) => x.outcome === 'skipped' && x.reason === 'capped')).toHaveLength(
      40 - AUTOMATION_ACTIONS_PER_TICKET_HOUR,
    );
  });
});

describe('automation: each condition holds and fails', () => {
  it('queue, connection, tag, assignee, status, business hours, message and contact/ticket fields: only the rules whose conditions hold run; send_quick_message fills its variables', async () => {
    const co = await newCompany('auto-conds');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    ok(
      await api('PUT', `/companies/${co.companyId}/schedules`, {
        token: co.adminToken,
        body: { schedules: days.map((d) => ({ weekday: d, weekdayEn: d, startTime: '00:00', endTime: '23:59' })) },
      }),
      200,
      'hours',
    );
    for (const [entity, key, type] of [
      ['contact', 'plano', 'text'],
      ['ticket', 'valor', 'number'],
    ] as const)
      ok(
        await api('POST', '/custom-fields', { token: co.adminToken, body: { entity, name: key, key, type } }),
        201,
        'field',
      );
    const quick = ok<any>(
      await api('POST', '/quick-messages', {
        token: co.adminToken,
        body: { shortcode: 'oi', message: 'Oi {{name}}, plano {{contact.plano}}', geral: true },
      }),
      201,
      'quick message',
    );
    const holds: Record<string, unknown[]> = {
      queue: [
        { type: 'queue', op: 'in', ids: [tm.queue.id] },
        { type: 'queue', op: 'not_empty' },
      ],
      connection: [{ type: 'connection', op: 'in', ids: [tm.whatsapp.id] }],
      tag: [
        { type: 'tag', op: 'empty' },
        { type: 'tag', op: 'not_in', ids: [tag.id] },
      ],
      assignee: [{ type: 'assignee', op: 'in', ids: [tm.ana.id] }],
      status: [{ type: 'status', op: 'not_in', values: ['pending', 'closed'] }],
      hours: [{ type: 'business_hours', within: true }],
      message: [{ type: 'message', op: 'not_contains', value: 'cancelar' }],
      contactField: [{ type: 'field', entity: 'contact', key: 'plano', op: 'eq', value: 'ouro' }],
      ticketField: [{ type: 'field', entity: 'ticket', key: 'valor', op: 'empty' }],
    };
    const fails: Record<string, unknown[]> = {
      queue: [{ type: 'queue', op: 'in', ids: [tm.other.id] }],
      connection: [{ type: 'connection', op: 'not_in', ids: [tm.whatsapp.id] }],
      tag: [{ type: 'tag', op: 'not_empty' }],
      assignee: [{ type: 'assignee', op: 'empty' }],
      status: [{ type: 'status', op: 'in', values: ['closed'] }],
      hours: [{ type: 'business_hours', within: false }],
      message: [{ type: 'message', op: 'contains', value: 'cancelar' }],
      contactField: [{ type: 'field', entity: 'contact', key: 'plano', op: 'neq', value: 'ouro' }],
      ticketField: [{ type: 'field', entity: 'ticket', key: 'valor', op: 'gt', value: 10 }],
    };
    for (const [name, conditions] of Object.entries(holds))
      await rule(co, {
        name: `holds ${name}`,
        event: { type: 'ticket_created' },
        conditions,
        actions: [{ type: 'add_note', body: name }],
      });
    for (const [name, conditions] of Object.entries(fails))
      await rule(co, {
        name: `fails ${name}`,
        event: { type: 'ticket_created' },
        conditions,
        actions: [{ type: 'add_note', body: name }],
      });
    await rule(co, {
      name: 'quick',
      event: { type: 'ticket_created' },
      conditions: holds.contactField,
      actions: [{ type: 'send_quick_message', quickMessageId: quick.id }],
    });

    const contact = ok<any>(
      await api('POST', '/contacts', {
        token: co.adminToken,
        body: { name: 'Rita Alves', number: randomNumber(), customFields: { plano: 'ouro' } },
      }),
      201,
      'contact',
    );
    const t = ok<any>(
      await api('POST', '/tickets', {
        token: co.adminToken,
        body: {
          status: 'open',
          contactId: contact.id,
          whatsappId: tm.whatsapp.id,
          queueId: tm.queue.id,
          userId: tm.ana.id,
        },
      }),
      201,
      'ticket',
    );
    await queuesIdle(co.companyId);
    const ran = (await runsOfTicket(co, t.id)).map((r) => r.name).sort();
    expect(ran).toEqual([...Object.keys(holds).map((n) => `holds ${n}`), 'quick'].sort());
    const sent = await eventually(async () =>
      (await messagesOf(co.adminToken, t.id)).find((m) => m.fromMe && m.body.startsWith('Oi ')),
    );
    expect(sent.body).toBe('Oi Rita Alves, plano ouro');
  });
});
