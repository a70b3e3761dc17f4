import { describe, it, expect } from 'vitest';
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { api, baseUrl, newCompany, realtimeClient, sleep, table } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { fake, notesOf, queue, ticketOf, withoutFeature } from './ai-support';

const pad = (n: number) => String(n).padStart(10, '0');
const received = async (companyId: number, whatsappId: number) =>
  (await phone(companyId, whatsappId).outbound()).map((o) => o.body as string);
const number = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function integration(token: string, body: Record<string, unknown>) {
  const res = await api('POST', '/queueIntegration', { token, body });
  if (res.status !== 201) throw new Error(`integration: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A connection whose only queue hands its tickets to the integration. */
async function lineWith(co: { adminToken: string; companyId: number }, integrationId: number) {
  const q = await queue(co.adminToken, 'Bot');
  await api('PUT', `/queue/${q.id}`, { token: co.adminToken, body: { integrationId } });
  const w = await connectedWhatsapp(co.adminToken, co.companyId, { queueIds: [q.id] });
  return { q, w };
}

function serviceAccount(projectId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = `bot-${randomUUID().slice(0, 8)}@${projectId}.iam.gserviceaccount.com`;
  const json = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: 'k1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
  };
  return { json, clientEmail, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

describe('queue integrations: CRUD (management.md "Queue integrations", 5, 7, 9)', () => {
  it('type rules, the section 9 typebot defaults, projectName = name for n8n, webhook and typebot', async () => {
    const co = await newCompany('qi1');
    const bad: [Record<string, unknown>, string][] = [
      [{ type: 'n8n', name: 'x' }, 'name'],
      [{ type: 'n8n', name: 'x'.repeat(51), urlN8N: 'http://a.b' }, 'name'],
      [{ type: 'webhook', name: 'Hook' }, 'urlN8N'],
      [{ type: 'n8n', name: 'Flow', urlN8N: 'not a url' }, 'urlN8N'],
      [{ type: 'typebot', name: 'Tb', urlN8N: 'http://tb.local' }, 'typebotSlug'],
      [{ type: 'dialogflow', name: 'Df', jsonContent: '{"nope":1}' }, 'jsonContent'],
      [{ type: 'other', name: 'Zz' }, 'type'],
    ];
    for (const [body, field] of bad) {
      const res = await api('POST', '/queueIntegration', { token: co.adminToken, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.details.map((d: any) => d.path[0])).toContain(field);
    }
    const tb = await integration(co.adminToken, {
      type: 'typebot',
      name: 'Meu Typebot',
      projectName: 'ignored',
      urlN8N: 'http://tb.local',
      typebotSlug: 'fluxo',
    });
    expect(tb).toMatchObject({ projectName: 'Meu Typebot', typebotDelayMessage: 1000, typebotExpires: 1 });
    const hook = await integration(co.adminToken, { type: 'webhook', name: 'Hook', urlN8N: 'http://h.local/x' });
    expect(hook.projectName).toBe('Hook');
    expect(hook.webhookSecret.length).toBeGreaterThan(20);
    const renamed = await api('PUT', `/queueIntegration/${hook.id}`, {
      token: co.adminToken,
      body: { name: 'Hook 2' },
    });
    expect(renamed.body).toMatchObject({ name: 'Hook 2', projectName: 'Hook 2', urlN8N: 'http://h.local/x' });
    const list = await api('GET', '/queueIntegration?searchParam=hook', { token: co.adminToken });
    expect(list.body.queueIntegrations.map((i: any) => i.id)).toEqual([hook.id]);
    expect(list.body.queueIntegrations[0].webhookSecret).toBe(hook.webhookSecret);
    // an attendant sees the integrations (the queue selectors) but never the signing secret
    const email = `agent-${randomUUID()}@test.dev`;
    await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Agent', email, password: 'secret123', profile: 'user' },
    });
    const agent = (await api('POST', '/auth/login', { body: { email, password: 'secret123' } })).body.token;
    const seen = await api('GET', '/queueIntegration?searchParam=hook', { token: agent });
    expect(seen.body.queueIntegrations.map((i: any) => i.id)).toEqual([hook.id]);
    const one = await api('GET', `/queueIntegration/${hook.id}`, { token: agent });
    expect(one.status).toBe(200);
    for (const shown of [seen.body.queueIntegrations[0], one.body]) {
      expect(shown.webhookSecret).toBe('');
      expect(JSON.stringify(shown)).not.toContain(hook.webhookSecret);
    }
  });

  it('dialogflow credentials are stored sealed and answered with the private key masked', async () => {
    const co = await newCompany('qi2');
    const { json } = serviceAccount('proj-a');
    const df = await integration(co.adminToken, {
      type: 'dialogflow',
      name: 'Agente',
      language: 'en',
      jsonContent: JSON.stringify(json),
    });
    expect(df.projectName).toBe('proj-a');
    expect(JSON.parse(df.jsonContent).private_key).toBe('********');
    expect(JSON.parse(df.jsonContent).client_email).toBe(json.client_email);
    const stored = await table().get(`C#${co.companyId}`, `QINT#${pad(df.id)}`);
    expect(JSON.stringify(stored)).not.toContain('PRIVATE KEY');
  });

  it("another company's integrations are unreachable; useIntegrations is enforced", async () => {
    const a = await newCompany('qi3a');
    const b = await newCompany('qi3b');
    const hook = await integration(a.adminToken, { type: 'n8n', name: 'Flow', urlN8N: 'http://n8n.local/x' });
    expect((await api('GET', `/queueIntegration/${hook.id}`, { token: b.adminToken })).status).toBe(404);
    expect(
      (await api('PUT', `/queueIntegration/${hook.id}`, { token: b.adminToken, body: { name: 'Mine' } })).status,
    ).toBe(404);
    expect((await api('DELETE', `/queueIntegration/${hook.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', '/queueIntegration', { token: b.adminToken })).body.queueIntegrations).toEqual([]);
    await withoutFeature(a, 'useIntegrations');
    for (const [method, path] of [
      ['GET', '/queueIntegration'],
      ['GET', `/queueIntegration/${hook.id}`],
      ['POST', '/queueIntegration'],
      ['PUT', `/queueIntegration/${hook.id}`],
      ['DELETE', `/queueIntegration/${hook.id}`],
      ['POST', '/queueIntegration/testSession'],
    ] as const) {
      const res = await api(method, path, { token: a.adminToken, body: method === 'GET' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});

describe('queue integrations in the inbound pipeline (local fakes)', () => {
  it('webhook: POSTs the message and ticket signed with the secret; its reply reaches the phone', async () => {
    const co = await newCompany('qi4');
    const hookId = randomUUID();
    const hook = await integration(co.adminToken, {
      type: 'webhook',
      name: 'Hook',
      urlN8N: `${baseUrl()}/@webhook/${hookId}`,
    });
    await fake('POST', `/@webhook/${hookId}/_script`, { reply: 'Recebido pelo webhook' });
    const { w } = await lineWith(co, hook.id);
    const from = number();
    await phone(co.companyId, w.id).send({ from, pushName: 'Caio', body: 'Pedido 42' });
    await eventually(async () => (await received(co.companyId, w.id)).includes('Recebido pelo webhook'));
    const [call] = await fake<any[]>('GET', `/@webhook/${hookId}/_requests`);
    const event = JSON.parse(call.raw);
    expect(event).toMatchObject({
      event: 'message',
      message: { body: 'Pedido 42', fromMe: false },
      contact: { name: 'Caio', number: from },
      company: { id: co.companyId },
    });
    const ts = call.headers['x-inbox-timestamp'];
    const expected = `sha256=${createHmac('sha256', hook.webhookSecret).update(`${ts}.${call.raw}`).digest('hex')}`;
    expect(call.headers['x-inbox-signature']).toBe(expected);
    expect(await ticketOf(co, from)).toMatchObject({ useIntegration: true, integrationId: hook.id, status: 'pending' });
  });

  it('n8n: a failing receiver hands the ticket to people with a note, never silent', async () => {
    const co = await newCompany('qi5');
    const hookId = randomUUID();
    const n8n = await integration(co.adminToken, {
      type: 'n8n',
      name: 'Flow',
      urlN8N: `${baseUrl()}/@webhook/${hookId}`,
    });
    await fake('POST', `/@webhook/${hookId}/_script`, { status: 503 });
    const { w } = await lineWith(co, n8n.id);
    const from = number();
    await phone(co.companyId, w.id).send({ from, body: 'oi' });
    const ticket = await eventually(async () => {
      const t = await ticketOf(co, from);
      return t && (await notesOf(co, t)).length ? t : undefined;
    }, 15_000);
    expect(ticket).toMatchObject({ status: 'pending', useIntegration: false, integrationId: null });
    expect((await notesOf(co, ticket))[0]!.note).toContain('HTTP 503');
    expect(await fake<any[]>('GET', `/@webhook/${hookId}/_requests`)).toHaveLength(3);
    // people have it now: the next message is not posted again
    await phone(co.companyId, w.id).send({ from, body: 'alguém?' });
    await eventually(async () => true);
    expect(await fake<any[]>('GET', `/@webhook/${hookId}/_requests`)).toHaveLength(3);
  }, 30_000);

  it('typebot: start, numbered choice, unknown answer, restart keyword, finish keyword', async () => {
    const co = await newCompany('qi6');
    const slug = `flow-${randomUUID().slice(0, 8)}`;
    const tb = await integration(co.adminToken, {
      type: 'typebot',
      name: 'Typebot',
      urlN8N: `${baseUrl()}/@typebot`,
      typebotSlug: slug,
      typebotDelayMessage: 0,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotUnknownMessage: 'Não entendi, escolha 1 ou 2.',
      typebotRestartMessage: 'Vamos recomeçar.',
    });
    const { w } = await lineWith(co, tb.id);
    const p = phone(co.companyId, w.id);
    const from = number();
    const got = () => received(co.companyId, w.id);
    await p.send({ from, pushName: 'Duda', body: 'oi' });
    await eventually(async () => (await got()).length === 2);
    expect(await got()).toEqual(['Olá Duda! Escolha um setor:', '1 - Vendas\n2 - Suporte']);
    await p.send({ from, body: 'talvez' });
    await eventually(async () => (await got()).length === 3);
    expect((await got())[2]).toBe('Não entendi, escolha 1 ou 2.');
    await p.send({ from, body: '2' });
    await eventually(async () => (await got()).length === 5);
    expect((await got()).slice(3)).toEqual(['Você escolheu Suporte.', 'Qual o seu e-mail?']);
    const continued = (await fake<any[]>('GET', `/@typebot/_requests?slug=${slug}`)).filter((r) => r.sessionId);
    expect(continued.at(-1).body.message).toEqual({ type: 'text', text: 'Suporte' });
    await p.send({ from, body: 'Reiniciar' });
    await eventually(async () => (await got()).length === 6);
    expect((await got())[5]).toBe('Vamos recomeçar.');
    await p.send({ from, body: 'oi de novo' });
    await eventually(async () => (await got()).length === 8);
    expect((await got())[6]).toBe('Olá Duda! Escolha um setor:');
    expect((await fake<any[]>('GET', `/@typebot/_requests?slug=${slug}`)).filter((r) => !r.sessionId)).toHaveLength(2);
    await p.send({ from, body: 'SAIR' });
    await eventually(async () => (await ticketOf(co, from))?.useIntegration === false);
    await p.send({ from, body: 'ainda aí?' });
    await eventually(async () => true);
    expect(await got()).toHaveLength(8);
  }, 30_000);

  it('typebot: a flow that ends hands the ticket to people', async () => {
    const co = await newCompany('qi7');
    const tb = await integration(co.adminToken, {
      type: 'typebot',
      name: 'Typebot',
      urlN8N: `${baseUrl()}/@typebot`,
      typebotSlug: `end-${randomUUID().slice(0, 6)}`,
      typebotDelayMessage: 0,
    });
    const { w } = await lineWith(co, tb.id);
    const p = phone(co.companyId, w.id);
    const from = number();
    await p.send({ from, body: 'oi' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 2);
    await p.send({ from, body: '1' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 4);
    await p.send({ from, body: 'ana@example.com' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 5);
    expect((await received(co.companyId, w.id))[4]).toBe('Obrigado! Vamos escrever para ana@example.com.');
    expect(await ticketOf(co, from)).toMatchObject({ status: 'pending', useIntegration: false });
  }, 30_000);

  it('dialogflow: signed service-account token, detect-intent replies with the fulfillment text; test session', async () => {
    const co = await newCompany('qi8');
    const project = `proj-${randomUUID().slice(0, 8)}`;
    const sa = serviceAccount(project);
    await fake('POST', '/@dialogflow/_keys', { clientEmail: sa.clientEmail, publicKey: sa.publicKey });
    const df = await integration(co.adminToken, {
      type: 'dialogflow',
      name: 'Agente',
      language: 'es',
      jsonContent: JSON.stringify(sa.json),
    });
    // the dialog's button, with the masked key of the saved integration
    const test = await api('POST', '/queueIntegration/testSession', {
      token: co.adminToken,
      body: { id: df.id, projectName: project, jsonContent: df.jsonContent, language: 'es' },
    });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ answer: 'Dialogflow (es): Olá', intent: 'echo' });
    // a key the fake does not know cannot get a token
    const stranger = serviceAccount(project);
    const refused = await api('POST', '/queueIntegration/testSession', {
      token: co.adminToken,
      body: { projectName: project, jsonContent: JSON.stringify(stranger.json) },
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('ERR_INTEGRATION_PROVIDER');

    const { w } = await lineWith(co, df.id);
    const p = phone(co.companyId, w.id);
    const from = number();
    await p.send({ from, body: 'hola' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['Dialogflow (es): hola']);
    await p.send({ from, body: 'quiero un humano' });
    await eventually(async () => (await ticketOf(co, from))?.useIntegration === false);
    expect((await received(co.companyId, w.id))[1]).toBe('Vou chamar um atendente.');
    const calls = await fake<any[]>('GET', `/@dialogflow/_requests?project=${project}`);
    expect(new Set(calls.slice(1).map((c) => c.session)).size).toBe(1);
  }, 30_000);
});

describe('queue integrations: timeouts and deletion', () => {
  it('typebot: a provider that never answers times out (after retries) and the ticket goes to people with a note', async () => {
    const co = await newCompany('qi9');
    const tb = await integration(co.adminToken, {
      type: 'typebot',
      name: 'Typebot',
      urlN8N: `${baseUrl()}/@typebot`,
      // the fake's slug that never answers
      typebotSlug: 'slow',
    });
    const { w } = await lineWith(co, tb.id);
    const from = number();
    await phone(co.companyId, w.id).send({ from, body: 'oi' });
    const ticket = await eventually(async () => {
      const t = await ticketOf(co, from);
      return t && (await notesOf(co, t)).length ? t : undefined;
    }, 20_000);
    expect(ticket).toMatchObject({ status: 'pending', useIntegration: false, integrationId: null, userId: null });
    expect((await notesOf(co, ticket))[0]!.note).toContain('timeout');
    expect(await received(co.companyId, w.id)).toEqual([]);
  }, 40_000);

  it('deleting one clears it from its queues (live) and the next message is not posted to it; lists hear of every change without the secret', async () => {
    const co = await newCompany('qi10');
    const rt = await realtimeClient(co.adminToken);
    const hookId = randomUUID();
    const hook = await integration(co.adminToken, {
      type: 'webhook',
      name: 'Hook',
      urlN8N: `${baseUrl()}/@webhook/${hookId}`,
    });
    const channel = `company-${co.companyId}-queueIntegration`;
    const created = await rt.waitFor((e) => e.event === channel && e.data.action === 'create');
    expect(created.data).toMatchObject({ integrationId: hook.id, queueIntegration: { id: hook.id, name: 'Hook' } });
    await api('PUT', `/queueIntegration/${hook.id}`, { token: co.adminToken, body: { name: 'Hook 2' } });
    const updated = await rt.waitFor((e) => e.event === channel && e.data.action === 'update');
    expect(updated.data.queueIntegration.name).toBe('Hook 2');
    for (const e of [created, updated]) expect(JSON.stringify(e.data)).not.toContain(hook.webhookSecret);
    const { q, w } = await lineWith(co, hook.id);
    const other = await integration(co.adminToken, { type: 'n8n', name: 'Flow', urlN8N: `${baseUrl()}/@webhook/x` });
    const kept = await queue(co.adminToken, 'Outra');
    await api('PUT', `/queue/${kept.id}`, { token: co.adminToken, body: { integrationId: other.id } });

    // the events of the delete, not those of the set-up above
    const since = rt.events.length;
    const afterDelete = (e: { event: string; data: any }) => rt.events.indexOf(e) >= since;
    const del = await api('DELETE', `/queueIntegration/${hook.id}`, { token: co.adminToken });
    expect(del.status).toBe(200);
    expect((await api('GET', `/queue/${q.id}`, { token: co.adminToken })).body.integrationId).toBeNull();
    expect((await api('GET', `/queue/${kept.id}`, { token: co.adminToken })).body.integrationId).toBe(other.id);
    const queueEvent = await rt.waitFor(
      (e) =>
        afterDelete(e) &&
        e.event === `company-${co.companyId}-queue` &&
        e.data.action === 'update' &&
        e.data.queue?.id === q.id,
    );
    expect(queueEvent.data.queue.integrationId).toBeNull();
    await rt.waitFor((e) => e.event === channel && e.data.action === 'delete' && e.data.integrationId === hook.id);
    rt.close();

    // the queue has no bot any more: no POST, no failure note, the ticket waits for people
    const from = number();
    await phone(co.companyId, w.id).send({ from, body: 'Pedido 43' });
    const ticket = await eventually(async () => ticketOf(co, from));
    await sleep(300);
    await eventually(async () => true);
    expect(await fake<any[]>('GET', `/@webhook/${hookId}/_requests`)).toEqual([]);
    expect(await notesOf(co, ticket)).toEqual([]);
    expect(await ticketOf(co, from)).toMatchObject({ status: 'pending', useIntegration: false, integrationId: null });
  });
});
