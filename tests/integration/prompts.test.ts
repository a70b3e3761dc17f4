import { describe, it, expect } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { PROMPT_TRANSFER_PHRASE } from '../../shared/schemas/prompts';
import { api, newCompany, realtimeClient, sleep, table } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { fake, notesOf, queue, ticketOf, withoutFeature } from './ai-support';

const pad = (n: number) => String(n).padStart(10, '0');
const PROMPT_TEXT = 'Você é a assistente da Loja Exemplo. Responda com educação e em português, sempre curto.';
const received = async (companyId: number, whatsappId: number) =>
  (await phone(companyId, whatsappId).outbound()).map((o) => o.body as string);
const number = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function promptFor(token: string, extra: Record<string, unknown> = {}) {
  const q = await queue(token, 'Humanos');
  const apiKey = `sk-test-${randomUUID()}`;
  const res = await api('POST', '/prompt', {
    token,
    body: { name: 'Atendente IA', prompt: PROMPT_TEXT, apiKey, queueId: q.id, ...extra },
  });
  if (res.status !== 201) throw new Error(`prompt: ${res.status} ${JSON.stringify(res.body)}`);
  return { prompt: res.body, apiKey, queue: q };
}

describe('AI prompts: CRUD (management.md "AI prompts", 5, 7, 9)', () => {
  it('creates with the section 9 defaults, masks the apiKey in every answer and stores it sealed', async () => {
    const co = await newCompany('pr1');
    const { prompt, apiKey, queue: q } = await promptFor(co.adminToken);
    expect(prompt).toMatchObject({
      name: 'Atendente IA',
      model: 'gpt-3.5-turbo-1106',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      queueId: q.id,
      queue: { id: q.id, name: q.name },
    });
    expect(prompt.apiKey).toBe(`********${apiKey.slice(-4)}`);
    const list = await api('GET', '/prompt', { token: co.adminToken });
    expect(list.body.prompts).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
    const one = await api('GET', `/prompt/${prompt.id}`, { token: co.adminToken });
    expect(one.body.apiKey).toBe(prompt.apiKey);
    const stored = await table().get(`C#${co.companyId}`, `PROMPT#${pad(prompt.id)}`);
    expect(JSON.stringify(stored)).not.toContain(apiKey);
  });

  it('PUT keeps the key when the mask comes back, replaces it when a new one is sent', async () => {
    const co = await newCompany('pr2');
    const { prompt } = await promptFor(co.adminToken);
    const kept = await api('PUT', `/prompt/${prompt.id}`, {
      token: co.adminToken,
      body: { ...prompt, temperature: 0.3, maxTokens: 200 },
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ temperature: 0.3, maxTokens: 200, apiKey: prompt.apiKey });
    const changed = await api('PUT', `/prompt/${prompt.id}`, {
      token: co.adminToken,
      body: { apiKey: 'sk-new-key-9876' },
    });
    expect(changed.body.apiKey).toBe('********9876');
  });

  it('section 5: name 5-100, prompt >= 50, temperature 0-1 in steps of 0.1, queue required and of the company', async () => {
    const co = await newCompany('pr3');
    const q = await queue(co.adminToken, 'Q');
    const base = { name: 'Prompt ok', prompt: PROMPT_TEXT, apiKey: 'sk-1234', queueId: q.id };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'abcd' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ prompt: 'curto demais' }, 'prompt'],
      [{ temperature: 1.5 }, 'temperature'],
      [{ temperature: 0.15 }, 'temperature'],
      [{ temperature: -0.1 }, 'temperature'],
      [{ queueId: undefined }, 'queueId'],
      [{ queueId: q.id + 1000 }, 'queueId'],
      [{ apiKey: '' }, 'apiKey'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ maxMessages: 'ten' }, 'maxMessages'],
    ];
    for (const [change, field] of cases) {
      const res = await api('POST', '/prompt', { token: co.adminToken, body: { ...base, ...change } });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.details.map((d: any) => d.path[0])).toContain(field);
    }
    const ok = await api('POST', '/prompt', {
      token: co.adminToken,
      body: { ...base, temperature: 0.7, model: 'gpt-4o-mini' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ temperature: 0.7, model: 'gpt-4o-mini' });
  });

  it("another company's prompts are unreachable; DELETE answers a message", async () => {
    const a = await newCompany('pr4a');
    const b = await newCompany('pr4b');
    const { prompt } = await promptFor(a.adminToken);
    expect((await api('GET', `/prompt/${prompt.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('PUT', `/prompt/${prompt.id}`, { token: b.adminToken, body: { name: 'Hijacked' } })).status).toBe(
      404,
    );
    expect((await api('DELETE', `/prompt/${prompt.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', '/prompt', { token: b.adminToken })).body.prompts).toEqual([]);
    const del = await api('DELETE', `/prompt/${prompt.id}`, { token: a.adminToken });
    expect(del.status).toBe(200);
    expect(del.body.message).toBeTruthy();
    expect((await api('GET', `/prompt/${prompt.id}`, { token: a.adminToken })).status).toBe(404);
  });

  it("a queue or connection cannot name another company's prompt or integration, nor one that does not exist", async () => {
    const a = await newCompany('pr4c');
    const b = await newCompany('pr4d');
    const { prompt } = await promptFor(a.adminToken);
    const hook = (
      await api('POST', '/queueIntegration', {
        token: a.adminToken,
        body: { type: 'webhook', name: 'Hook', urlN8N: 'http://h.local/x' },
      })
    ).body;
    const q = await queue(b.adminToken, 'Fila B');
    const w = await connectedWhatsapp(b.adminToken, b.companyId);
    for (const body of [{ promptId: prompt.id }, { integrationId: hook.id }, { promptId: 999_999 }]) {
      const res = await api('PUT', `/queue/${q.id}`, { token: b.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.map((d: any) => d.path[0])).toEqual(Object.keys(body));
    }
    const onConnection = await api('PUT', `/whatsapp/${w.id}`, { token: b.adminToken, body: { promptId: prompt.id } });
    expect(onConnection.status).toBe(400);
    expect(onConnection.body.details[0].path[0]).toBe('promptId');
    const created = await api('POST', '/queue', {
      token: b.adminToken,
      body: { name: 'Outra fila', color: '#123456', promptId: prompt.id },
    });
    expect(created.status).toBe(400);
    // nothing changed; its own prompt is accepted
    expect((await api('GET', `/queue/${q.id}`, { token: b.adminToken })).body.promptId).toBeNull();
    const own = await promptFor(b.adminToken);
    expect(
      (await api('PUT', `/queue/${q.id}`, { token: b.adminToken, body: { promptId: own.prompt.id } })).body,
    ).toMatchObject({
      promptId: own.prompt.id,
    });
  });

  it('the plan flag useOpenAi is enforced on every route', async () => {
    const co = await newCompany('pr5');
    const { prompt } = await promptFor(co.adminToken);
    await withoutFeature(co, 'useOpenAi');
    for (const [method, path] of [
      ['GET', '/prompt'],
      ['GET', `/prompt/${prompt.id}`],
      ['POST', '/prompt'],
      ['PUT', `/prompt/${prompt.id}`],
      ['DELETE', `/prompt/${prompt.id}`],
    ] as const) {
      const res = await api(method, path, { token: co.adminToken, body: method === 'GET' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});

describe('AI prompts answer customers (OpenAI-compatible fake)', () => {
  it('a connection with a prompt answers: system = the prompt, context = the last maxMessages of the ticket', async () => {
    const co = await newCompany('pr6');
    const { prompt, apiKey } = await promptFor(co.adminToken, { maxMessages: 3, maxTokens: 150, temperature: 0.2 });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const p = phone(co.companyId, w.id);
    const from = number();
    await p.send({ from, pushName: 'Ana', body: 'Qual o horário da loja?' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['Resposta da IA para: Qual o horário da loja?']);
    await p.send({ from, body: 'E aos sábados?' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 2);
    expect((await received(co.companyId, w.id))[1]).toBe('Resposta da IA para: E aos sábados?');

    const calls = await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`);
    expect(calls).toHaveLength(2);
    const last = calls[1].body;
    expect(last).toMatchObject({ model: 'gpt-3.5-turbo-1106', max_tokens: 150, temperature: 0.2 });
    expect(last.messages[0].role).toBe('system');
    expect(last.messages[0].content.startsWith(PROMPT_TEXT)).toBe(true);
    expect(last.messages[0].content).toContain(PROMPT_TRANSFER_PHRASE);
    // maxMessages 3: the three newest of the ticket, oldest first, the bot's own as assistant
    expect(last.messages.slice(1)).toEqual([
      { role: 'user', content: 'Qual o horário da loja?' },
      { role: 'assistant', content: 'Resposta da IA para: Qual o horário da loja?' },
      { role: 'user', content: 'E aos sábados?' },
    ]);
    const ticket = await ticketOf(co, from);
    expect(ticket).toMatchObject({ status: 'pending', promptId: prompt.id, userId: null });
  });

  it('the transfer phrase is never sent: the ticket goes to the prompt queue for people and the AI stops', async () => {
    const co = await newCompany('pr7');
    const { prompt, apiKey, queue: q } = await promptFor(co.adminToken);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const p = phone(co.companyId, w.id);
    const from = number();
    await p.send({ from, pushName: 'Bia', body: 'Quero falar com um humano' });
    await eventually(async () => (await ticketOf(co, from))?.queueId === q.id);
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['Claro!']);
    const ticket = await ticketOf(co, from);
    expect(ticket).toMatchObject({ status: 'pending', queueId: q.id, promptId: null, userId: null });
    await p.send({ from, body: 'Alô?' });
    await eventually(async () => (await fake<any[]>('GET', `/@openai/_requests?apiKey=${apiKey}`)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['Claro!']);
  });

  it('a queue with a prompt answers once the chatbot puts the ticket there', async () => {
    const co = await newCompany('pr8');
    const { prompt, apiKey } = await promptFor(co.adminToken);
    const sales = await queue(co.adminToken, 'Vendas');
    const put = await api('PUT', `/queue/${sales.id}`, { token: co.adminToken, body: { promptId: prompt.id } });
    expect(put.status).toBe(200);
    const other = await queue(co.adminToken, 'Outro');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      queueIds: [sales.id, other.id],
      greetingMessage: 'Escolha:',
    });
    const p = phone(co.companyId, w.id);
    const from = number();
    await p.send({ from, body: 'oi' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    await p.send({ from, body: '1' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 2);
    expect((await received(co.companyId, w.id))[1]).toBe('Resposta da IA para: 1');
    expect(await fake<any[]>('GET', `/@openai/_requests?apiKey=${apiKey}`)).toHaveLength(1);
  });

  it('a provider that times out (after retries) leaves the ticket pending for people with a note, nothing sent', async () => {
    const co = await newCompany('pr9');
    const { prompt, apiKey } = await promptFor(co.adminToken);
    await fake('POST', '/@openai/_script', { apiKey, delayMs: 4000 });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const from = number();
    await phone(co.companyId, w.id).send({ from, body: 'Olá?' });
    const ticket = await eventually(async () => {
      const t = await ticketOf(co, from);
      return t && (await notesOf(co, t)).length ? t : undefined;
    }, 20_000);
    expect(ticket).toMatchObject({ status: 'pending', promptId: null, userId: null });
    const [note] = await notesOf(co, ticket);
    expect(note!.note).toContain('timeout');
    expect(await fake<any[]>('GET', `/@openai/_requests?apiKey=${apiKey}`)).toHaveLength(3);
    expect(await received(co.companyId, w.id)).toEqual([]);
  }, 40_000);

  it('without useOpenAi the connection prompt stays silent', async () => {
    const co = await newCompany('pr10');
    const { prompt, apiKey } = await promptFor(co.adminToken);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    await withoutFeature(co, 'useOpenAi');
    const from = number();
    await phone(co.companyId, w.id).send({ from, body: 'Oi' });
    await eventually(async () => ticketOf(co, from));
    expect(await fake<any[]>('GET', `/@openai/_requests?apiKey=${apiKey}`)).toEqual([]);
    expect(await received(co.companyId, w.id)).toEqual([]);
  });
});

/** Audio the fake provider transcribes as `words`: a format's magic bytes, NUL, then the words. */
const audio = (magic: string, words: string) =>
  Buffer.concat([Buffer.from(magic), Buffer.from([0]), Buffer.from(words)]);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('AI prompts: audio from the customer is transcribed when the provider offers it', () => {
  it('a voice note and an audio file are answered from their transcripts, which attendants read on the messages', async () => {
    const co = await newCompany('pr11');
    const { prompt, apiKey } = await promptFor(co.adminToken);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    const from = number();
    const voice = audio('OggS', 'Vocês abrem no domingo?');
    const sent = await p.send({
      from,
      pushName: 'Rui',
      media: { data: voice.toString('base64'), mimetype: 'audio/ogg; codecs=opus' },
    });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['Resposta da IA para: Vocês abrem no domingo?']);

    // the provider got this very file, as a multipart upload with the transcription model
    const [upload] = await fake<any[]>('GET', `/@openai/_transcriptions?apiKey=${encodeURIComponent(apiKey)}`);
    expect(upload).toMatchObject({ model: 'whisper-1', size: voice.length, sha256: sha256(voice) });
    expect(upload.fileName).toMatch(/\.ogg$/);
    // attendants see the transcript on the audio message, live and in the history
    const live = await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-appMessage` &&
        e.data.action === 'update' &&
        e.data.message?.wid === sent.wid,
    );
    expect(live.data.message).toMatchObject({ mediaType: 'audio', transcript: 'Vocês abrem no domingo?' });
    rt.close();

    // an audio file (its body is its file name) is heard, not read: the model gets the transcript
    const file = audio('ID3', 'E no sábado, até que horas?');
    await p.send({
      from,
      media: { data: file.toString('base64'), mimetype: 'audio/mpeg', fileName: 'pergunta.mp3' },
    });
    await eventually(async () => (await received(co.companyId, w.id)).length === 2);
    expect((await received(co.companyId, w.id))[1]).toBe('Resposta da IA para: E no sábado, até que horas?');
    const uploads = await fake<any[]>('GET', `/@openai/_transcriptions?apiKey=${encodeURIComponent(apiKey)}`);
    expect(uploads[1]).toMatchObject({ fileName: 'pergunta.mp3', sha256: sha256(file) });
    const calls = await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`);
    // the earlier audio stays in the context as its transcript
    expect(calls[1].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Vocês abrem no domingo?' },
      { role: 'assistant', content: 'Resposta da IA para: Vocês abrem no domingo?' },
      { role: 'user', content: 'E no sábado, até que horas?' },
    ]);
    const ticket = await ticketOf(co, from);
    const history = (await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages as any[];
    expect(history.filter((m) => m.mediaType === 'audio').map((m) => m.transcript)).toEqual([
      'Vocês abrem no domingo?',
      'E no sábado, até que horas?',
    ]);
    expect(ticket).toMatchObject({ status: 'pending', promptId: prompt.id });
  });

  it('a provider without transcription (404) hands the ticket to people with a note, at once and nothing sent', async () => {
    const co = await newCompany('pr12');
    const { prompt, apiKey } = await promptFor(co.adminToken);
    await fake('POST', '/@openai/_script', { apiKey, transcriptionStatus: 404 });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const from = number();
    const voice = audio('OggS', 'Alô?');
    await phone(co.companyId, w.id).send({ from, media: { data: voice.toString('base64'), mimetype: 'audio/ogg' } });
    const ticket = await eventually(async () => {
      const t = await ticketOf(co, from);
      return t && (await notesOf(co, t)).length ? t : undefined;
    });
    expect(ticket).toMatchObject({ status: 'pending', promptId: null, userId: null });
    expect((await notesOf(co, ticket))[0]!.note).toMatch(/transcription not offered.*HTTP 404/);
    // "not offered" is an answer, not a failure to retry
    expect(await fake<any[]>('GET', `/@openai/_transcriptions?apiKey=${encodeURIComponent(apiKey)}`)).toHaveLength(1);
    expect(await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`)).toEqual([]);
    expect(await received(co.companyId, w.id)).toEqual([]);
  });

  it('a failing transcription is retried, then the ticket goes to people with a note', async () => {
    const co = await newCompany('pr13');
    const { prompt, apiKey } = await promptFor(co.adminToken);
    await fake('POST', '/@openai/_script', { apiKey, transcriptionStatus: 503 });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const from = number();
    const voice = audio('OggS', 'Alô?');
    await phone(co.companyId, w.id).send({ from, media: { data: voice.toString('base64'), mimetype: 'audio/ogg' } });
    const ticket = await eventually(async () => {
      const t = await ticketOf(co, from);
      return t && (await notesOf(co, t)).length ? t : undefined;
    }, 15_000);
    expect(ticket).toMatchObject({ status: 'pending', promptId: null });
    expect((await notesOf(co, ticket))[0]!.note).toContain('HTTP 503');
    expect(await fake<any[]>('GET', `/@openai/_transcriptions?apiKey=${encodeURIComponent(apiKey)}`)).toHaveLength(3);
    expect(await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`)).toEqual([]);
    expect(await received(co.companyId, w.id)).toEqual([]);
  }, 30_000);
});

describe('AI prompts: deleting one leaves no link to it', () => {
  it('its queues and connections stop naming it (live), the inbound path no longer tries it; other links and companies keep theirs', async () => {
    // prompt ids count per company: the other company's first prompt has the same id as this one's
    const other = await newCompany('pr14b');
    const theirs = await promptFor(other.adminToken);
    const theirLine = await connectedWhatsapp(other.adminToken, other.companyId, { promptId: theirs.prompt.id });
    const co = await newCompany('pr14');
    const rt = await realtimeClient(co.adminToken);
    const { prompt, apiKey } = await promptFor(co.adminToken);
    expect(prompt.id).toBe(theirs.prompt.id);
    const created = await rt.waitFor((e) => e.event === `company-${co.companyId}-prompt` && e.data.action === 'create');
    expect(created.data).toMatchObject({ promptId: prompt.id, prompt: { name: prompt.name, apiKey: prompt.apiKey } });
    expect(JSON.stringify(created.data)).not.toContain(apiKey);
    const kept = await promptFor(co.adminToken);
    const sales = await queue(co.adminToken, 'Vendas');
    const support = await queue(co.adminToken, 'Suporte');
    await api('PUT', `/queue/${sales.id}`, { token: co.adminToken, body: { promptId: prompt.id } });
    await api('PUT', `/queue/${support.id}`, { token: co.adminToken, body: { promptId: kept.prompt.id } });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    // a conversation the prompt is answering when it is deleted
    const early = number();
    await phone(co.companyId, w.id).send({ from: early, body: 'Olá' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);

    // the events of the delete, not those of the set-up above
    const since = rt.events.length;
    const afterDelete = (e: { event: string; data: any }) => rt.events.indexOf(e) >= since;
    const del = await api('DELETE', `/prompt/${prompt.id}`, { token: co.adminToken });
    expect(del.status).toBe(200);
    expect((await api('GET', `/queue/${sales.id}`, { token: co.adminToken })).body.promptId).toBeNull();
    expect((await api('GET', `/queue/${support.id}`, { token: co.adminToken })).body.promptId).toBe(kept.prompt.id);
    expect((await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.promptId).toBeNull();
    expect((await api('GET', `/whatsapp/${theirLine.id}`, { token: other.adminToken })).body.promptId).toBe(
      theirs.prompt.id,
    );
    const queueEvent = await rt.waitFor(
      (e) =>
        afterDelete(e) &&
        e.event === `company-${co.companyId}-queue` &&
        e.data.queue?.id === sales.id &&
        e.data.action === 'update',
    );
    expect(queueEvent.data.queue.promptId).toBeNull();
    const lineEvent = await rt.waitFor(
      (e) =>
        afterDelete(e) &&
        e.event === `company-${co.companyId}-whatsapp` &&
        e.data.whatsapp?.id === w.id &&
        e.data.action === 'update',
    );
    expect(lineEvent.data.whatsapp.promptId).toBeNull();
    await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-prompt` && e.data.action === 'delete' && e.data.promptId === prompt.id,
    );
    rt.close();

    // that conversation goes to people with a note on its next message
    await phone(co.companyId, w.id).send({ from: early, body: 'Ainda aí?' });
    const handed = await eventually(async () => {
      const t = await ticketOf(co, early);
      return t && (await notesOf(co, t)).length ? t : undefined;
    });
    expect(handed).toMatchObject({ status: 'pending', promptId: null, userId: null });
    expect((await notesOf(co, handed))[0]!.note).toContain('foi excluído');
    // a new one finds a plain line: no AI call, no failure note, the ticket simply waits for people
    const from = number();
    await phone(co.companyId, w.id).send({ from, body: 'Oi, tem alguém?' });
    const ticket = await eventually(async () => ticketOf(co, from));
    await sleep(300);
    await eventually(async () => true);
    expect(await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`)).toHaveLength(1);
    expect(await notesOf(co, ticket)).toEqual([]);
    expect(await received(co.companyId, w.id)).toEqual(['Resposta da IA para: Olá']);
    expect(await ticketOf(co, from)).toMatchObject({ status: 'pending', promptId: null });
  });
});
