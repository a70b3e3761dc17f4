import { describe, expect, it } from 'vitest';
import { api, newCompany, realtimeClient, table } from './helpers';
import { createUser } from './fixtures';
import { withoutFeature } from './ai-support';
import { pad } from '../../functions/lib/keys';
import { automationTeam, createTag, newTicket, ok, rule, runsOfTicket } from './automation-support';

/**
 * Automation rules (issue 40 item 2): admins create, list (by order), change and delete them; a rule
 * names only what its company has (ERR_AUTOMATION_REFERENCE), a `matches` pattern must be safe
 * (ERR_AUTOMATION_UNSAFE_PATTERN); every write bumps the company's rules version in its transaction,
 * is audited and told to admins live. Plans without useAutomation and other companies never reach them.
 */

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Boas-vindas',
  event: { type: 'ticket_created' },
  actions: [{ type: 'add_note', body: 'oi' }],
  ...extra,
});

describe('automation rules: CRUD', () => {
  it('admins create, read, list by order, change and delete rules: stored with the version item, audited, live to admins', async () => {
    const co = await newCompany('ar-crud');
    const rt = await realtimeClient(co.adminToken);
    try {
      const first = await rule(co, body());
      expect(first).toMatchObject({
        companyId: co.companyId,
        name: 'Boas-vindas',
        active: true,
        conditions: [],
        order: first.id,
      });
      const second = await rule(co, body({ name: 'Sem resposta', event: { type: 'no_agent_reply', minutes: 30 } }));
      const list = ok<any[]>(await api('GET', '/automation-rules', { token: co.adminToken }), 200, 'list');
      expect(list.map((r) => r.id)).toEqual([first.id, second.id]);
      expect(ok(await api('GET', `/automation-rules/${first.id}`, { token: co.adminToken }), 200, 'get')).toEqual(
        first,
      );

      // the version item: bumped by each write, listing what the active rules listen for
      let version = await table().get(`C#${co.companyId}#RULES`, 'VERSION');
      expect(version).toMatchObject({
        v: 2,
        events: ['ticket_created', 'no_agent_reply'],
        timed: { no_agent_reply: [30] },
      });

      const changed = ok<any>(
        await api('PUT', `/automation-rules/${second.id}`, {
          token: co.adminToken,
          body: body({ name: 'Desligada', active: false }),
        }),
        200,
        'put',
      );
      expect(changed).toMatchObject({ id: second.id, name: 'Desligada', active: false, createdAt: second.createdAt });
      version = await table().get(`C#${co.companyId}#RULES`, 'VERSION');
      expect(version).toMatchObject({ v: 3, events: ['ticket_created'], timed: {} });

      expect((await api('DELETE', `/automation-rules/${first.id}`, { token: co.adminToken })).status).toBe(200);
      expect((await api('GET', `/automation-rules/${first.id}`, { token: co.adminToken })).status).toBe(404);
      expect(await table().get(`C#${co.companyId}#RULES`, `RULE#${pad(first.id)}`)).toBeUndefined();
      expect(await table().get(`C#${co.companyId}#RULES`, 'VERSION')).toMatchObject({ v: 4, events: [] });

      const event = `company-${co.companyId}-automationRule`;
      await rt.waitFor((e) => e.event === event && e.data.action === 'create' && e.data.rule.id === first.id);
      await rt.waitFor((e) => e.event === event && e.data.action === 'update' && e.data.rule.id === second.id);
      await rt.waitFor((e) => e.event === event && e.data.action === 'delete' && e.data.ruleId === first.id);

      const audit = ok<any>(await api('GET', '/audit', { token: co.adminToken }), 200, 'audit');
      const actions = (audit.entries ?? audit.items ?? audit.records ?? []).map((e: any) => e.action);
      expect(actions).toEqual(
        expect.arrayContaining(['automation_rule.created', 'automation_rule.updated', 'automation_rule.deleted']),
      );
    } finally {
      rt.close();
    }
  });

  it('a rule that names what the company lacks is ERR_AUTOMATION_REFERENCE; a pattern that could backtrack is ERR_AUTOMATION_UNSAFE_PATTERN; the shape is ERR_VALIDATION', async () => {
    const co = await newCompany('ar-valid');
    const other = await newCompany('ar-valid-other');
    const foreignTag = await createTag(other);
    const refused = async (b: Record<string, unknown>, status: number, code: string) => {
      const res = await api('POST', '/automation-rules', { token: co.adminToken, body: b });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toBe(code);
      return res.body;
    };
    const ref = await refused(
      body({ actions: [{ type: 'add_tag', tagId: foreignTag.id }] }),
      422,
      'ERR_AUTOMATION_REFERENCE',
    );
    expect(ref.details).toEqual({ path: ['actions', 0, 'tagId'] });
    await refused(body({ conditions: [{ type: 'queue', op: 'in', ids: [999999] }] }), 422, 'ERR_AUTOMATION_REFERENCE');
    await refused(body({ actions: [{ type: 'assign_user', userId: 999999 }] }), 422, 'ERR_AUTOMATION_REFERENCE');
    await refused(
      body({ actions: [{ type: 'send_quick_message', quickMessageId: 999999 }] }),
      422,
      'ERR_AUTOMATION_REFERENCE',
    );
    await refused(
      body({ actions: [{ type: 'set_field', entity: 'contact', key: 'nao_existe', value: 'x' }] }),
      422,
      'ERR_AUTOMATION_REFERENCE',
    );
    ok(
      await api('POST', '/custom-fields', {
        token: co.adminToken,
        body: { entity: 'contact', name: 'Licenças', key: 'seats', type: 'number' },
      }),
      201,
      'field',
    );
    const typed = await refused(
      body({ actions: [{ type: 'set_field', entity: 'contact', key: 'seats', value: 'muitas' }] }),
      422,
      'ERR_AUTOMATION_REFERENCE',
    );
    expect(typed.details).toEqual({ path: ['actions', 0, 'value'] });
    await rule(co, body({ actions: [{ type: 'set_field', entity: 'contact', key: 'seats', value: 3 }] }));

    for (const pattern of [
      '(a+)+$',
      '(\\w*)*x',
      '(a|aa)+',
      '(x+x+)+y',
      '(a)\\1',
      '[unclosed',
      '.*.*x',
      '\\w*\\w*!',
      '\\d+\\d+$',
    ])
      await refused(
        body({ conditions: [{ type: 'message', op: 'matches', value: pattern }] }),
        400,
        'ERR_AUTOMATION_UNSAFE_PATTERN',
      );
    await rule(co, body({ conditions: [{ type: 'message', op: 'matches', value: '^pedido\\s+\\d{4,8}$' }] }));

    await refused(body({ actions: [] }), 400, 'ERR_VALIDATION');
    await refused(body({ event: { type: 'no_agent_reply' } }), 400, 'ERR_VALIDATION');
    await refused(
      body({
        actions: [
          { type: 'add_note', body: 'x' },
          { type: 'wait', minutes: 5 },
        ],
      }),
      400,
      'ERR_VALIDATION',
    );
  });

  it('only admins reach the rules; a plan without useAutomation is ERR_PLAN_FEATURE_DISABLED; another company never sees or touches them', async () => {
    const co = await newCompany('ar-access');
    const tm = await automationTeam(co);
    const agent = await createUser(co);
    const r = await rule(co, body());
    for (const [method, path, b] of [
      ['GET', '/automation-rules', undefined],
      ['POST', '/automation-rules', body()],
      ['GET', `/automation-rules/${r.id}`, undefined],
      ['PUT', `/automation-rules/${r.id}`, body()],
      ['DELETE', `/automation-rules/${r.id}`, undefined],
      ['GET', `/automation-rules/${r.id}/runs`, undefined],
    ] as const) {
      const res = await api(method, path, { token: agent.token, body: b });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // the ticket's runs: whoever may see the ticket
    const t = await newTicket(tm, { userId: tm.ana.id });
    expect((await runsOfTicket(co, t.id)).map((x) => x.ruleId)).toEqual([r.id]);
    expect((await api('GET', `/tickets/${t.id}/automation-runs`, { token: agent.token })).status).toBe(403);
    expect((await runsOfTicket(co, t.id, tm.ana.token)).length).toBe(1);

    const other = await newCompany('ar-access-other');
    expect(ok<any[]>(await api('GET', '/automation-rules', { token: other.adminToken }), 200, 'list')).toEqual([]);
    for (const [method, path, b] of [
      ['GET', `/automation-rules/${r.id}`, undefined],
      ['PUT', `/automation-rules/${r.id}`, body()],
      ['DELETE', `/automation-rules/${r.id}`, undefined],
      ['GET', `/automation-rules/${r.id}/runs`, undefined],
    ] as const)
      expect((await api(method, path, { token: other.adminToken, body: b })).status, `${method} ${path}`).toBe(404);
    expect((await api('GET', `/tickets/${t.id}/automation-runs`, { token: other.adminToken })).status).toBe(404);
    expect(await table().get(`C#${co.companyId}#RULES`, `RULE#${pad(r.id)}`)).toMatchObject({ name: 'Boas-vindas' });

    await withoutFeature(co, 'useAutomation');
    const res = await api('GET', '/automation-rules', { token: co.adminToken });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it('a dry run lists the recent tickets whose conditions hold and what the actions would do, variables filled, and changes nothing', async () => {
    const co = await newCompany('ar-dry');
    const tm = await automationTeam(co);
    const tag = await createTag(co);
    const inQueue = await newTicket(tm);
    const elsewhere = await newTicket(tm, { queueId: tm.other.id });
    const res = await api('POST', '/automation-rules/dry-run', {
      token: co.adminToken,
      body: body({
        conditions: [{ type: 'queue', op: 'in', ids: [tm.queue.id] }],
        actions: [
          { type: 'send_message', body: 'Olá {{firstName}}!' },
          { type: 'add_tag', tagId: tag.id },
        ],
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ scanned: 2, truncated: false });
    expect(res.body.matches).toEqual([
      {
        ticketId: inQueue.id,
        contactName: 'Maria Souza',
        at: expect.any(String),
        actions: [
          { type: 'send_message', preview: 'Olá Maria!' },
          { type: 'add_tag', preview: `tag ${tag.id}` },
        ],
      },
    ]);
    // nothing happened: no tag, no message, no run, no rule
    const after = ok<any>(await api('GET', `/tickets/${inQueue.id}`, { token: co.adminToken }), 200, 'ticket');
    expect(after.tags).toEqual([]);
    const messages = ok<any>(await api('GET', `/messages/${inQueue.id}`, { token: co.adminToken }), 200, 'messages');
    expect(messages.messages).toEqual([]);
    expect(await runsOfTicket(co, inQueue.id)).toEqual([]);
    expect(ok<any[]>(await api('GET', '/automation-rules', { token: co.adminToken }), 200, 'list')).toEqual([]);
    expect(elsewhere.id).not.toBe(inQueue.id);
  });
});
