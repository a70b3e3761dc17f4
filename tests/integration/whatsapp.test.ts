import { describe, it, expect } from 'vitest';
import { api, login, newCompany, realtimeClient, table } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';

describe('connections API', () => {
  it('the first connection gets the defaults of section 9, becomes the default one and starts with a QR code', async () => {
    const co = await newCompany('wapp');
    const rt = await realtimeClient(co.adminToken);
    const res = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Sales', isDefault: false } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Sales',
      companyId: co.companyId,
      isDefault: true,
      provider: 'beta',
      maxUseBotQueues: 3,
      expiresTicket: 0,
      timeUseBotQueues: 0,
      token: expect.any(String),
    });
    const qr = await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-whatsappSession` &&
        e.data.session.status === 'qrcode' &&
        e.data.session.id === res.body.id,
    );
    expect(qr.data.session.qrcode).toMatch(/^sim:/);
    expect(qr.data.session).toHaveProperty('retries');
    expect(qr.data.session).toHaveProperty('updatedAt');
    const withQr = await api('GET', `/whatsapp/${res.body.id}`, { token: co.adminToken });
    expect(withQr.body.qrcode).toBe(qr.data.session.qrcode);
    const withoutQr = await api('GET', `/whatsapp/${res.body.id}?session=0`, { token: co.adminToken });
    expect(withoutQr.body.status).toBe('qrcode');
    expect(withoutQr.body.qrcode).toBeUndefined();
    rt.close();
  });

  it('scanning the QR code connects the session: PAIRING, then CONNECTED with an empty qrcode on whatsappSession', async () => {
    const co = await newCompany('scan');
    const rt = await realtimeClient(co.adminToken);
    const created = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Support' } });
    await phone(co.companyId, created.body.id).scan('5511988887777');
    const connected = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-whatsappSession` && e.data.session.status === 'CONNECTED',
      8000,
    );
    expect(connected.data.session).toMatchObject({ id: created.body.id, qrcode: '' });
    await rt.waitFor((e) => e.event === `company-${co.companyId}-whatsapp` && e.data.whatsapp?.status === 'CONNECTED');
    const list = await api('GET', '/whatsapp?session=0', { token: co.adminToken });
    expect(list.body).toEqual([
      expect.objectContaining({ id: created.body.id, status: 'CONNECTED', number: '5511988887777' }),
    ]);
    rt.close();
  });

  it('name must have 2 to 50 characters (ERR_VALIDATION)', async () => {
    const co = await newCompany('wname');
    for (const name of ['a', 'x'.repeat(51)]) {
      const res = await api('POST', '/whatsapp', { token: co.adminToken, body: { name } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });

  it('more than one queue without a greeting is ERR_WAPP_GREETING_REQUIRED', async () => {
    const co = await newCompany('greet');
    const q1 = (await api('POST', '/queue', { token: co.adminToken, body: { name: 'First', color: '#aa0001' } })).body
      .id;
    const q2 = (await api('POST', '/queue', { token: co.adminToken, body: { name: 'Second', color: '#aa0002' } })).body
      .id;
    const res = await api('POST', '/whatsapp', {
      token: co.adminToken,
      body: { name: 'Two queues', queueIds: [q1, q2] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const ok = await api('POST', '/whatsapp', {
      token: co.adminToken,
      body: { name: 'Two queues', queueIds: [q1, q2], greetingMessage: 'Hi! Choose:' },
    });
    expect(ok.status).toBe(201);
    const put = await api('PUT', `/whatsapp/${ok.body.id}`, { token: co.adminToken, body: { greetingMessage: '' } });
    expect(put.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    // a queue this company does not have is refused (queue ids are per company)
    const foreign = q2 + 1000;
    const stolen = await api('PUT', `/whatsapp/${ok.body.id}`, {
      token: co.adminToken,
      body: { queueIds: [q1, foreign] },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('ERR_VALIDATION');
    expect(
      (await api('PUT', `/whatsapp/${ok.body.id}`, { token: co.adminToken, body: { transferQueueId: foreign } })).body
        .error,
    ).toBe('ERR_VALIDATION');
  });

  it('exactly one default per company: a new default moves the flag; un-defaulting or deleting the default is ERR_NO_OTHER_WHATSAPP', async () => {
    const co = await newCompany('def');
    const a = (await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line A' } })).body;
    const b = (await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line B' } })).body;
    expect(a.isDefault).toBe(true);
    expect(b.isDefault).toBe(false);
    const moved = await api('PUT', `/whatsapp/${b.id}`, { token: co.adminToken, body: { isDefault: true } });
    expect(moved.body.isDefault).toBe(true);
    expect((await api('GET', `/whatsapp/${a.id}`, { token: co.adminToken })).body.isDefault).toBe(false);
    const undefault = await api('PUT', `/whatsapp/${b.id}`, { token: co.adminToken, body: { isDefault: false } });
    expect(undefault.status).toBe(400);
    expect(undefault.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    const del = await api('DELETE', `/whatsapp/${b.id}`, { token: co.adminToken });
    expect(del.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect((await api('DELETE', `/whatsapp/${a.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('DELETE', `/whatsapp/${b.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', '/whatsapp', { token: co.adminToken })).body).toEqual([]);
  });

  it('the plan connection limit is ERR_PLAN_LIMIT_REACHED, and deleting frees a slot', async () => {
    const co = await newCompany('limit');
    // the plan allows 10; start this company at 9 used
    await table().set(`C#${co.companyId}`, 'COUNTER#usage#connections', { value: 9 });
    const tenth = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Tenth' } });
    expect(tenth.status).toBe(201);
    const eleventh = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Eleventh' } });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.error).toBe('ERR_PLAN_LIMIT_REACHED');
    // the tenth is the default and the only one this company sees: it may be deleted
    expect((await api('DELETE', `/whatsapp/${tenth.body.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Again' } })).status).toBe(201);
  });

  it('another company cannot see, change or delete a connection (ERR_NO_WAPP_FOUND)', async () => {
    const a = await newCompany('own');
    const b = await newCompany('other');
    const w = (await api('POST', '/whatsapp', { token: a.adminToken, body: { name: 'Mine' } })).body;
    expect((await api('GET', `/whatsapp/${w.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('PUT', `/whatsapp/${w.id}`, { token: b.adminToken, body: { name: 'Stolen' } })).body.error).toBe(
      'ERR_NO_WAPP_FOUND',
    );
    expect((await api('DELETE', `/whatsapp/${w.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('POST', `/whatsappsession/${w.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', '/whatsapp', { token: b.adminToken })).body).toEqual([]);
    expect((await api('GET', '/whatsapp')).status).toBe(401);
  });

  it('disconnect logs the phone out (DISCONNECTED) and retry shows a new QR code; new QR pairs again', async () => {
    const co = await newCompany('disc');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    expect((await api('DELETE', `/whatsappsession/${w.id}`, { token: co.adminToken })).status).toBe(200);
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'DISCONNECTED',
    );
    expect((await api('POST', `/whatsappsession/${w.id}`, { token: co.adminToken })).status).toBe(200);
    const qr = await eventually(async () => {
      const cur = (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body;
      return cur.status === 'qrcode' && cur.qrcode;
    });
    expect(qr).toMatch(/^sim:/);
    expect((await api('PUT', `/whatsappsession/${w.id}`, { token: co.adminToken })).status).toBe(200);
    await eventually(async () => {
      const cur = (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body;
      return cur.status === 'qrcode' && cur.qrcode !== qr;
    });
    await phone(co.companyId, w.id).scan();
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'CONNECTED',
    );
  });

  it('a 401 close (logged out on the phone) is final: state cleared, DISCONNECTED; a 428 reconnects by itself', async () => {
    const co = await newCompany('close');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    await phone(co.companyId, w.id).drop(428);
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'CONNECTED',
    );
    await phone(co.companyId, w.id).drop(401);
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'DISCONNECTED',
    );
    expect(await table().get(`C#${co.companyId}#WAUTH#${w.id}`, 'creds')).toBeUndefined();
  });

  it('retry on a live session reports its real status again (never stuck at OPENING)', async () => {
    const co = await newCompany('retry');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    expect((await api('POST', `/whatsappsession/${w.id}`, { token: co.adminToken })).status).toBe(200);
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'CONNECTED',
    );
  });

  it('a connected session keeps its auth state, its entry in the sessions to run and a live holder in the table', async () => {
    const co = await newCompany('resume');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    // the stored credentials and the list of sessions to run survive in the table
    expect(await table().get(`C#${co.companyId}#WAUTH#${w.id}`, 'creds')).toBeDefined();
    const session = await table().get('WSESSIONS', `${co.companyId}#${w.id}`);
    expect(session).toMatchObject({ companyId: co.companyId, whatsappId: w.id, owner: expect.any(String) });
    // held by a runner whose heartbeat is fresh (session-runner/src/fleet.ts)
    const holder = await table().get('WRUNNERS', String(session!.owner));
    expect(holder!.expiresAt).toBeGreaterThan(Date.now());
  });

  it('connections-page permissions: a user may list connections (without tokens) but not add, edit, delete or press session buttons', async () => {
    const co = await newCompany('perm');
    const w = (await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line' } })).body;
    const email = `agent-${co.companyId}@test.dev`;
    const created = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Agent', email, password: 'secret123', profile: 'user' },
    });
    expect(created.status).toBe(201);
    const agent = await login(email, 'secret123');
    const list = await api('GET', '/whatsapp', { token: agent.token });
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ id: w.id, name: 'Line' });
    expect(list.body[0].token).toBeUndefined();
    for (const [method, path] of [
      ['POST', '/whatsapp'],
      ['PUT', `/whatsapp/${w.id}`],
      ['DELETE', `/whatsapp/${w.id}`],
      ['POST', `/whatsappsession/${w.id}`],
      ['PUT', `/whatsappsession/${w.id}`],
      ['DELETE', `/whatsappsession/${w.id}`],
    ] as const) {
      const res = await api(method, path, {
        token: agent.token,
        body: method === 'DELETE' ? undefined : { name: 'Mine now' },
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });
  it('QR codes go only to holders of connections-page:actionButtons, in GET /whatsapp and on whatsappSession events', async () => {
    const co = await newCompany('qr');
    const email = `qr-agent-${co.companyId}@test.dev`;
    expect(
      (
        await api('POST', '/users', {
          token: co.adminToken,
          body: { name: 'Agent', email, password: 'secret123', profile: 'user' },
        })
      ).status,
    ).toBe(201);
    const agent = await login(email, 'secret123');
    const adminRt = await realtimeClient(co.adminToken);
    const agentRt = await realtimeClient(agent.token);
    const w = (await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line' } })).body;
    const isQr = (e: { event: string; data: any }) =>
      e.event === `company-${co.companyId}-whatsappSession` && e.data.session.status === 'qrcode';
    // positive control: the admin's socket gets the QR code ...
    const shown = await adminRt.waitFor(isQr, 8000);
    expect(shown.data.session.qrcode).toMatch(/^sim:/);
    // ... the plain user's socket gets the status without it
    const seen = await agentRt.waitFor(isQr, 8000);
    expect(seen.data.session.qrcode).toBe('');
    expect(agentRt.events.filter((e) => JSON.stringify(e).includes(shown.data.session.qrcode))).toEqual([]);

    expect((await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.qrcode).toMatch(/^sim:/);
    const list = await api('GET', '/whatsapp', { token: agent.token });
    expect(list.body[0]).toMatchObject({ id: w.id, status: 'qrcode' });
    expect(list.body[0]).not.toHaveProperty('qrcode');
    expect(await api('GET', `/whatsapp/${w.id}?session=1`, { token: agent.token })).toMatchObject({
      status: 200,
      body: expect.not.objectContaining({ qrcode: expect.anything() }),
    });
    adminRt.close();
    agentRt.close();
  });

  it('API tokens: at least 16 characters, stored only as a hash, shown in full once and masked afterwards', async () => {
    const co = await newCompany('tok');
    const short = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line', token: 'x' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    const created = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line' } });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect(token.length).toBeGreaterThanOrEqual(32);

    // the table holds no plaintext token: not on the item, not in the guard
    const item = await table().get(`C#${co.companyId}`, `WHATSAPP#${String(created.body.id).padStart(10, '0')}`);
    expect(item).toBeDefined();
    expect(JSON.stringify(item)).not.toContain(token);
    expect(item!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const listed = (await api('GET', '/whatsapp', { token: co.adminToken })).body[0];
    expect(listed.token).not.toContain(token.slice(0, 8));
    expect(listed.token.endsWith(token.slice(-4))).toBe(true);
    expect((await api('GET', `/whatsapp/${created.body.id}`, { token: co.adminToken })).body.token).toBe(listed.token);

    // a rotation shows the new token once; an edit without a token keeps it
    const custom = 'my-own-api-token-0123456789';
    const rotated = await api('PUT', `/whatsapp/${created.body.id}`, { token: co.adminToken, body: { token: custom } });
    expect(rotated.body.token).toBe(custom);
    const renamed = await api('PUT', `/whatsapp/${created.body.id}`, {
      token: co.adminToken,
      body: { name: 'Renamed', token: '' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.token).not.toBe(custom);
    expect(renamed.body.token.endsWith(custom.slice(-4))).toBe(true);
    const tooShort = await api('PUT', `/whatsapp/${created.body.id}`, {
      token: co.adminToken,
      body: { token: 'short-token' },
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error).toBe('ERR_VALIDATION');
  });
});
