import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, runTimer, table, usesTimers, type TestCompany } from './helpers';
import { createContact, createTicket, createUser } from './fixtures';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { pad } from '../../functions/lib/keys';

usesTimers('campaigns');

/** Contact segments (issue 40 item 1): a named contact filter per company, a contacts list and a campaign audience. */

function ok<T = any>(res: { status: number; body: any }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

let seq = 0;
const numberOf = (co: TestCompany) => `55219${String(co.companyId).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;

const define = async (co: TestCompany, body: Record<string, unknown>) =>
  ok(await api('POST', '/custom-fields', { token: co.adminToken, body }), 201, `field ${JSON.stringify(body)}`);
const segment = async (co: TestCompany, body: Record<string, unknown>) =>
  ok(await api('POST', '/segments', { token: co.adminToken, body }), 201, `segment ${JSON.stringify(body)}`);

/** Every contact of a segment, page after page (a page may be short while more remain). */
async function allOf(token: string, query: string) {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = ok(
      await api('GET', `/contacts?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token }),
      200,
      `list ${query}`,
    );
    names.push(...res.contacts.map((c: any) => c.name));
    if (!res.hasMore) return names.sort();
    cursor = res.cursor;
  }
  throw new Error('too many pages');
}

/** A company with a plan field, a seats field and five contacts. */
async function company(label: string) {
  const co = await newCompany(label);
  const plan = await define(co, { entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] });
  const seats = await define(co, { entity: 'contact', name: 'Licenças', type: 'number' });
  const contacts = {
    ana: await createContact(co.adminToken, {
      name: 'Ana Gold',
      number: numberOf(co),
      customFields: { plano: 'Ouro', licencas: 12 },
    }),
    bia: await createContact(co.adminToken, {
      name: 'Bia Gold',
      number: numberOf(co),
      customFields: { plano: 'Ouro', licencas: 3 },
    }),
    caio: await createContact(co.adminToken, {
      name: 'Caio Bronze',
      number: numberOf(co),
      customFields: { plano: 'Bronze', licencas: 40 },
    }),
    // the plan still only in the contact's extra info counts as the field's value
    davi: await createContact(co.adminToken, {
      name: 'Davi Extra',
      number: numberOf(co),
      extraInfo: [{ name: 'plano', value: 'ouro' }],
    }),
    edu: await createContact(co.adminToken, { name: 'Edu Nothing', number: numberOf(co) }),
  };
  return { co, plan, seats, contacts };
}

describe('segments: definitions', () => {
  it('admins create, change and delete them; users read them; the stored item and the event to the company', async () => {
    const { co, plan } = await company('seg-crud');
    const agent = await createUser(co);
    const agents = await realtimeClient(agent.token);
    const event = `company-${co.companyId}-segment`;

    const gold = await segment(co, {
      name: 'Ouro com muitas licenças',
      conditions: [
        { type: 'field', key: plan.key, op: 'eq', value: 'ouro' },
        { type: 'field', key: 'licencas', op: 'gt', value: '10,5' },
      ],
    });
    // values are kept as their field's type: the option in its own case, the number as a number
    expect(gold).toMatchObject({
      companyId: co.companyId,
      name: 'Ouro com muitas licenças',
      conditions: [
        { type: 'field', key: 'plano', op: 'eq', value: 'Ouro' },
        { type: 'field', key: 'licencas', op: 'gt', value: 10.5 },
      ],
    });
    const onCreate = await agents.waitFor((e) => e.event === event && e.data.action === 'create');
    expect(onCreate.data.segment).toEqual(gold);
    expect(await table().get(`C#${co.companyId}#SEGMENTS`, `SEG#${pad(gold.id)}`)).toMatchObject({
      name: 'Ouro com muitas licenças',
    });

    // users read, only admins write
    expect(ok(await api('GET', '/segments', { token: agent.token }), 200, 'list')).toEqual([gold]);
    expect(ok(await api('GET', `/segments/${gold.id}`, { token: agent.token }), 200, 'one')).toEqual(gold);
    for (const [method, path, body] of [
      ['POST', '/segments', { name: 'x', conditions: [{ type: 'name', op: 'contains', value: 'a' }] }],
      ['PUT', `/segments/${gold.id}`, { name: 'x' }],
      ['DELETE', `/segments/${gold.id}`, undefined],
    ] as const) {
      expect((await api(method, path, { token: agent.token, body })).status, `${method} ${path}`).toBe(403);
    }

    const renamed = ok(
      await api('PUT', `/segments/${gold.id}`, { token: co.adminToken, body: { name: 'Clientes ouro' } }),
      200,
      'rename',
    );
    expect(renamed).toMatchObject({ name: 'Clientes ouro', conditions: gold.conditions });
    const onUpdate = await agents.waitFor((e) => e.event === event && e.data.action === 'update');
    expect(onUpdate.data.segment.name).toBe('Clientes ouro');

    ok(await api('DELETE', `/segments/${gold.id}`, { token: co.adminToken }), 200, 'delete');
    await agents.waitFor((e) => e.event === event && e.data.action === 'delete' && e.data.segmentId === gold.id);
    expect(await table().query(`C#${co.companyId}#SEGMENTS`)).toEqual([]);
    expect((await api('GET', `/segments/${gold.id}`, { token: agent.token })).status).toBe(404);
    agents.close();
  });

  it('a condition must name a contact field, ask what its type answers and give a value that fits (ERR_VALIDATION)', async () => {
    const { co } = await company('seg-shape');
    const tk = await define(co, { entity: 'ticket', name: 'Pedido', type: 'text' });
    for (const [conditions, path] of [
      [[{ type: 'field', key: 'nope', op: 'eq', value: 'x' }], ['conditions', 0, 'key']],
      [[{ type: 'field', key: tk.key, op: 'eq', value: 'x' }], ['conditions', 0, 'key']],
      [[{ type: 'field', key: 'plano', op: 'gt', value: 'Ouro' }], ['conditions', 0, 'op']],
      [[{ type: 'field', key: 'plano', op: 'eq', value: 'Prata' }], ['conditions', 0, 'value']],
      [[{ type: 'field', key: 'licencas', op: 'lt', value: 'muitas' }], ['conditions', 0, 'value']],
      [[{ type: 'field', key: 'licencas', op: 'eq' }], ['conditions', 0, 'value']],
      [[{ type: 'field', key: 'licencas', op: 'empty', value: 3 }], ['conditions', 0, 'value']],
      [[], ['conditions']],
      [
        [
          { type: 'tag', ids: [1] },
          { type: 'tag', ids: [2] },
        ],
        ['conditions'],
      ],
    ] as const) {
      const res = await api('POST', '/segments', { token: co.adminToken, body: { name: 'S', conditions } });
      expect(res.status, JSON.stringify(conditions)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(
        res.body.details.map((d: any) => d.path),
        JSON.stringify(conditions),
      ).toContainEqual(path);
    }
    // a tag of another company is not found
    const other = await newCompany('seg-shape-b');
    const foreignTag = ok(
      await api('POST', '/tags', { token: other.adminToken, body: { name: 'Theirs', color: '#222222' } }),
      201,
      'tag',
    );
    const res = await api('POST', '/segments', {
      token: co.adminToken,
      body: { name: 'S', conditions: [{ type: 'tag', ids: [foreignTag.id] }] },
    });
    expect(res.status).toBe(404);
    expect(await table().query(`C#${co.companyId}#SEGMENTS`)).toEqual([]);
  });
});

describe('segments: contacts', () => {
  it('GET /contacts?segmentId lists the contacts meeting every condition, extra info included, paged, with the search', async () => {
    const { co, contacts } = await company('seg-list');
    const agent = await createUser(co);
    const gold = await segment(co, {
      name: 'Ouro',
      conditions: [{ type: 'field', key: 'plano', op: 'eq', value: 'Ouro' }],
    });
    expect(await allOf(agent.token, `segmentId=${gold.id}&limit=1`)).toEqual(['Ana Gold', 'Bia Gold', 'Davi Extra']);

    const many = await segment(co, {
      name: 'Ouro e 10+',
      conditions: [
        { type: 'field', key: 'plano', op: 'eq', value: 'Ouro' },
        { type: 'field', key: 'licencas', op: 'gt', value: 10 },
      ],
    });
    expect(await allOf(agent.token, `segmentId=${many.id}`)).toEqual(['Ana Gold']);

    const noPlan = await segment(co, {
      name: 'Sem plano, nome com "o"',
      conditions: [
        { type: 'field', key: 'plano', op: 'empty' },
        { type: 'name', op: 'contains', value: 'NOTH' },
      ],
    });
    expect(await allOf(agent.token, `segmentId=${noPlan.id}`)).toEqual(['Edu Nothing']);

    const byNumber = await segment(co, {
      name: 'Número',
      conditions: [{ type: 'number', op: 'starts_with', value: contacts.caio.number }],
    });
    expect(await allOf(agent.token, `segmentId=${byNumber.id}`)).toEqual(['Caio Bronze']);

    // the list's search and field filter narrow the segment
    expect(await allOf(agent.token, `segmentId=${gold.id}&searchParam=bia`)).toEqual(['Bia Gold']);
    expect(await allOf(agent.token, `segmentId=${gold.id}&field=licencas&fieldValue=3`)).toEqual(['Bia Gold']);

    // the segment is read as it is now: a contact that changes joins or leaves it
    ok(
      await api('PUT', `/contacts/${contacts.caio.id}/custom-fields`, {
        token: co.adminToken,
        body: { customFields: { plano: 'Ouro' } },
      }),
      200,
      'caio to gold',
    );
    expect(await allOf(agent.token, `segmentId=${gold.id}`)).toEqual([
      'Ana Gold',
      'Bia Gold',
      'Caio Bronze',
      'Davi Extra',
    ]);
    expect(await allOf(agent.token, `segmentId=${many.id}`)).toEqual(['Ana Gold', 'Caio Bronze']);
    expect((await api('GET', '/contacts?segmentId=999999', { token: agent.token })).status).toBe(404);
  });

  it("a tag condition: the contacts of the tag's tickets, once, with the other conditions", async () => {
    const { co, contacts } = await company('seg-tag');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Tag line' });
    const vip = ok(
      await api('POST', '/tags', { token: co.adminToken, body: { name: 'VIP', color: '#111111' } }),
      201,
      'tag',
    );
    for (const c of [contacts.ana, contacts.caio, contacts.edu]) {
      const ticket = await createTicket(co.adminToken, { contactId: c.id, whatsappId: line.id });
      await api('POST', '/tags/sync', { token: co.adminToken, body: { ticketId: ticket.id, tags: [{ id: vip.id }] } });
    }
    const vips = await segment(co, { name: 'VIP', conditions: [{ type: 'tag', ids: [vip.id] }] });
    expect(await allOf(co.adminToken, `segmentId=${vips.id}`)).toEqual(['Ana Gold', 'Caio Bronze', 'Edu Nothing']);
    const goldVips = await segment(co, {
      name: 'VIP ouro',
      conditions: [
        { type: 'tag', ids: [vip.id] },
        { type: 'field', key: 'plano', op: 'eq', value: 'Ouro' },
      ],
    });
    expect(await allOf(co.adminToken, `segmentId=${goldVips.id}&limit=1`)).toEqual(['Ana Gold']);
  });

  it('another company sees none of them: its list, reads, changes, deletes and contact lists by segment are refused', async () => {
    const { co } = await company('seg-iso-a');
    const gold = await segment(co, {
      name: 'Ouro',
      conditions: [{ type: 'field', key: 'plano', op: 'eq', value: 'Ouro' }],
    });
    const other = await company('seg-iso-b');
    expect(ok(await api('GET', '/segments', { token: other.co.adminToken }), 200, 'list')).toEqual([]);
    for (const [method, path, body] of [
      ['GET', `/segments/${gold.id}`, undefined],
      ['PUT', `/segments/${gold.id}`, { name: 'Taken over' }],
      ['DELETE', `/segments/${gold.id}`, undefined],
      ['GET', `/contacts?segmentId=${gold.id}`, undefined],
    ] as const) {
      expect((await api(method, path, { token: other.co.adminToken, body })).status, `${method} ${path}`).toBe(404);
    }
    expect((await table().get(`C#${co.companyId}#SEGMENTS`, `SEG#${pad(gold.id)}`))!.name).toBe('Ouro');
    // a campaign of the other company cannot name it (it has no segment of its own yet: ids are per company)
    const line = await connectedWhatsapp(other.co.adminToken, other.co.companyId);
    const res = await api('POST', '/campaigns', {
      token: other.co.adminToken,
      body: { name: 'Promo', message1: 'Oi', whatsappId: line.id, segmentId: gold.id },
    });
    expect(res.status).toBe(404);
    // the other company's own segment with the same condition lists its own contacts only
    const theirs = await segment(other.co, {
      name: 'Ouro',
      conditions: [{ type: 'field', key: 'plano', op: 'eq', value: 'Ouro' }],
    });
    const listed = ok(await api('GET', `/contacts?segmentId=${theirs.id}`, { token: other.co.adminToken }), 200, 'b');
    expect(listed.contacts.every((c: any) => c.companyId === other.co.companyId)).toBe(true);
    expect(listed.contacts).toHaveLength(3);
  });
});

describe('segments: campaign audience', () => {
  it("a campaign sends to the segment's contacts as they are when it starts", async () => {
    const { co, contacts } = await company('seg-campaign');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Campaign line' });
    await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings: { messageInterval: 5 } } });
    const gold = await segment(co, {
      name: 'Ouro',
      conditions: [{ type: 'field', key: 'plano', op: 'eq', value: 'Ouro' }],
    });
    const created = ok(
      await api('POST', '/campaigns', {
        token: co.adminToken,
        body: { name: 'Promo', message1: 'Oi {{name}}', whatsappId: line.id, segmentId: gold.id },
      }),
      201,
      'campaign',
    );
    expect(created).toMatchObject({
      segmentId: gold.id,
      contactListId: null,
      tagId: null,
      segment: { id: gold.id, name: 'Ouro' },
    });
    // after the campaign was saved: Bia leaves the segment, Caio joins it
    await api('PUT', `/contacts/${contacts.bia.id}/custom-fields`, {
      token: co.adminToken,
      body: { customFields: { plano: 'Bronze' } },
    });
    await api('PUT', `/contacts/${contacts.caio.id}/custom-fields`, {
      token: co.adminToken,
      body: { customFields: { plano: 'Ouro' } },
    });
    // due now: the timer starts it
    const due = new Date(Date.now() - 1000).toISOString();
    ok(
      await api('PUT', `/campaigns/${created.id}`, {
        token: co.adminToken,
        body: {
          name: 'Promo',
          message1: 'Oi {{name}}',
          whatsappId: line.id,
          segmentId: gold.id,
          scheduledAt: new Date(Date.now() + 2 * 3600_000).toISOString(),
        },
      }),
      200,
      'schedule',
    );
    await table().set(`C#${co.companyId}`, `CAMPAIGN#${pad(created.id)}`, {
      scheduledAt: due,
      gsi4sk: `${due}#${pad(co.companyId)}#${pad(created.id)}`,
    });
    await runTimer('campaigns');
    const done = await eventually(async () => {
      const c = ok(await api('GET', `/campaigns/${created.id}`, { token: co.adminToken }), 200, 'get');
      return c.status === 'FINALIZADA' ? c : undefined;
    }, 20_000);
    expect(done.validContacts).toBe(3);
    const sent = (await phone(co.companyId, line.id).outbound()).filter((o: any) => !o.deleted);
    expect(sent.map((o: any) => o.to.split('@')[0]).sort()).toEqual(
      [contacts.ana.number, contacts.caio.number, contacts.davi.number].sort(),
    );
  });
});
