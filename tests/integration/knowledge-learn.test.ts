import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api, newCompany, realtimeClient, table, type TestCompany } from './helpers';
import { connectedWhatsapp, eventually, phone, rawTable } from './whatsapp-sim';
import { createUser } from './fixtures';
import { fake, queue, ticketOf, withoutFeature } from './ai-support';

/**
 * Issue 39 items 4 and 6: the agent's unanswered questions (list, dismiss, one-click draft with the
 * attendant's answer), the test bench (replays closed tickets' first messages, sends and stores
 * nothing) and the agent's metrics on the dashboard (agent- against person-resolved, hand-offs, CSAT,
 * spend).
 */
const pad = (n: number, w = 10) => String(n).padStart(w, '0');
const number = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const PROMPT_TEXT = 'Você é a assistente da Loja Exemplo. Responda com educação e em português, sempre curto.';
const month = () => new Date().toISOString().slice(0, 7);

async function promptFor(co: TestCompany, useKnowledgeBase: boolean) {
  const q = await queue(co.adminToken, 'Humanos');
  const apiKey = `sk-test-${randomUUID()}`;
  const res = await api('POST', '/prompt', {
    token: co.adminToken,
    body: { name: 'Agente IA', prompt: PROMPT_TEXT, apiKey, queueId: q.id, useKnowledgeBase },
  });
  if (res.status !== 201) throw new Error(`prompt: ${res.status} ${JSON.stringify(res.body)}`);
  return { prompt: res.body as { id: number }, apiKey, queue: q };
}

/** A published article, through the knowledge base's own route. */
async function publishedArticle(co: TestCompany, title: string, body: string) {
  const res = await api('POST', '/knowledge', { token: co.adminToken, body: { title, body, status: 'published' } });
  if (res.status !== 201) throw new Error(`article: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number };
}

const unanswered = async (co: TestCompany, query = '') =>
  api('GET', `/knowledge/unanswered${query}`, { token: co.adminToken });

/** A customer's question the agent hands off (an empty knowledge base: nothing found), answered by the admin. */
async function handedOff(co: TestCompany, whatsappId: number, question: string) {
  const from = number();
  await phone(co.companyId, whatsappId).send({ from, pushName: 'Cliente', body: question });
  const ticket = await eventually(async () => {
    const t = await ticketOf(co, from);
    return t && t.promptId === null && t.queueId ? t : undefined;
  });
  return { from, ticket };
}

describe('unanswered questions (issue 39 item 4)', () => {
  it('listed newest first and paged; a draft takes what the attendant answered after the hand-off, else the question; dismissed questions leave', async () => {
    const co = await newCompany('kbl1');
    const { prompt } = await promptFor(co, true);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    const rt = await realtimeClient(co.adminToken);
    try {
      const first = await handedOff(co, w.id, 'Vocês entregam em Curitiba?');
      // the attendant takes the ticket and answers: the knowledge the base lacked
      const accepted = await api('PUT', `/tickets/${first.ticket.id}`, {
        token: co.adminToken,
        body: { status: 'open', userId: co.admin.id },
      });
      expect(accepted.status).toBe(200);
      for (const body of ['Sim, entregamos em Curitiba em até 3 dias úteis.', 'O frete para lá custa R$ 15.']) {
        const sent = await api('POST', `/messages/${first.ticket.id}`, { token: co.adminToken, body: { body } });
        expect(sent.status).toBeLessThan(300);
      }
      const second = await handedOff(co, w.id, 'Aceitam pagamento em bitcoin?');

      const list = await unanswered(co);
      expect(list.status).toBe(200);
      expect(list.body.questions.map((q: any) => [q.ticketId, q.question, q.reason])).toEqual([
        [second.ticket.id, 'Aceitam pagamento em bitcoin?', 'nothing_found'],
        [first.ticket.id, 'Vocês entregam em Curitiba?', 'nothing_found'],
      ]);
      expect(list.body.hasMore).toBe(false);
      // paged by cursor
      const page1 = await unanswered(co, '?limit=1');
      expect(page1.body.questions.map((q: any) => q.ticketId)).toEqual([second.ticket.id]);
      expect(page1.body.hasMore).toBe(true);
      const page2 = await unanswered(co, `?limit=1&cursor=${encodeURIComponent(page1.body.cursor)}`);
      expect(page2.body.questions.map((q: any) => q.ticketId)).toEqual([first.ticket.id]);

      // one click: a draft from the first question, its body the attendant's answers
      const q1 = list.body.questions[1];
      const draft = await api('POST', `/knowledge/unanswered/${q1.id}/draft`, { token: co.adminToken });
      expect(draft.status).toBe(200);
      expect(draft.body).toMatchObject({
        kind: 'article',
        status: 'draft',
        title: 'Vocês entregam em Curitiba?',
        body: 'Sim, entregamos em Curitiba em até 3 dias úteis.\n\nO frete para lá custa R$ 15.',
        fromQuestionId: q1.id,
        companyId: co.companyId,
      });
      const stored = await table().get(`C#${co.companyId}`, `KB#${pad(draft.body.id)}`);
      expect(stored).toMatchObject({ status: 'draft', fromQuestionId: q1.id, body: draft.body.body });
      // a draft is not live: nothing of it is retrieved
      expect((await table().get(`C#${co.companyId}#KB`, 'LIVE'))?.live?.[String(draft.body.id)]).toBeUndefined();
      const live = await rt.waitFor(
        (e) => e.event === `company-${co.companyId}-knowledgeUnanswered` && e.data.action === 'update',
      );
      expect(live.data.question).toMatchObject({ id: q1.id, articleId: draft.body.id });
      const after = await unanswered(co);
      expect(after.body.questions.find((q: any) => q.id === q1.id).articleId).toBe(draft.body.id);
      // a second click answers the same draft, no second article
      const again = await api('POST', `/knowledge/unanswered/${q1.id}/draft`, { token: co.adminToken });
      expect(again.body.id).toBe(draft.body.id);
      const articles = (await table().query(`C#${co.companyId}`)).filter((i) => String(i.sk).startsWith('KB#'));
      expect(articles).toHaveLength(1);
      // it is an article of the knowledge base like any other: listed as a draft, told to admins
      const listed = await api('GET', '/knowledge', { token: co.adminToken });
      expect(listed.body.articles.map((x: any) => [x.id, x.status])).toEqual([[draft.body.id, 'draft']]);
      await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-knowledge` &&
          e.data.action === 'create' &&
          e.data.articleId === draft.body.id,
      );

      // nobody answered the second one on its ticket: the draft holds the question
      const q2 = list.body.questions[0];
      const draft2 = await api('POST', `/knowledge/unanswered/${q2.id}/draft`, { token: co.adminToken });
      expect(draft2.body).toMatchObject({ status: 'draft', body: 'Aceitam pagamento em bitcoin?' });
      expect(draft2.body.id).not.toBe(draft.body.id);
      // a draft the admin deleted can be made again
      expect((await api('DELETE', `/knowledge/${draft2.body.id}`, { token: co.adminToken })).status).toBe(200);
      const redraft = await api('POST', `/knowledge/unanswered/${q2.id}/draft`, { token: co.adminToken });
      expect(redraft.status).toBe(200);
      expect(redraft.body.id).not.toBe(draft2.body.id);
      expect((await unanswered(co)).body.questions.find((q: any) => q.id === q2.id).articleId).toBe(redraft.body.id);

      // dismissed: gone from the list, told to admins; its draft stays
      const dismissed = await api('DELETE', `/knowledge/unanswered/${q1.id}`, { token: co.adminToken });
      expect(dismissed.status).toBe(200);
      await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-knowledgeUnanswered` &&
          e.data.action === 'delete' &&
          e.data.questionId === q1.id,
      );
      expect((await unanswered(co)).body.questions.map((q: any) => q.id)).toEqual([q2.id]);
      expect(await table().get(`C#${co.companyId}`, `KB#${pad(draft.body.id)}`)).toBeDefined();
      const twice = await api('DELETE', `/knowledge/unanswered/${q1.id}`, { token: co.adminToken });
      expect(twice.status).toBe(404);
      expect(twice.body.error).toBe('ERR_KNOWLEDGE_QUESTION_NOT_FOUND');
      for (const bad of ['nope', '123', `${Date.now()}-x`]) {
        const res = await api('POST', `/knowledge/unanswered/${bad}/draft`, { token: co.adminToken });
        expect(res.status, bad).toBe(404);
        expect(res.body.error).toBe('ERR_KNOWLEDGE_QUESTION_NOT_FOUND');
      }
    } finally {
      rt.close();
    }
  });

  it("another company's questions are never reachable; admins only, on plans with useOpenAi", async () => {
    const a = await newCompany('kbl2a');
    const b = await newCompany('kbl2b');
    const { prompt } = await promptFor(a, true);
    const w = await connectedWhatsapp(a.adminToken, a.companyId, { promptId: prompt.id });
    await handedOff(a, w.id, 'Qual o prazo de garantia?');
    const [question] = (await unanswered(a)).body.questions;
    expect(question).toBeDefined();

    expect((await unanswered(b)).body.questions).toEqual([]);
    for (const [method, path] of [
      ['POST', `/knowledge/unanswered/${question.id}/draft`],
      ['DELETE', `/knowledge/unanswered/${question.id}`],
    ] as const) {
      const res = await api(method, path, { token: b.adminToken });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_KNOWLEDGE_QUESTION_NOT_FOUND');
    }
    // a's cursor is refused to b
    const page = await unanswered(a, '?limit=1');
    const foreign = await unanswered(b, `?limit=1&cursor=${encodeURIComponent(page.body.cursor ?? 'x.y')}`);
    expect(foreign.status).toBe(400);
    // untouched
    expect((await unanswered(a)).body.questions).toEqual([question]);
    expect((await table().query(`C#${a.companyId}`)).filter((i) => String(i.sk).startsWith('KB#'))).toEqual([]);
    expect((await table().query(`C#${b.companyId}`)).filter((i) => String(i.sk).startsWith('KB#'))).toEqual([]);

    // two clicks at once make one draft: the other answers it too, or ERR_CONFLICT while it is written
    const clicks = await Promise.all(
      [1, 2].map(() => api('POST', `/knowledge/unanswered/${question.id}/draft`, { token: a.adminToken })),
    );
    const made = clicks.filter((c) => c.status === 200);
    expect(made.length).toBeGreaterThan(0);
    for (const c of clicks) if (c.status !== 200) expect(c.body.error).toBe('ERR_CONFLICT');
    expect(new Set(made.map((c) => c.body.id)).size).toBe(1);
    expect((await table().query(`C#${a.companyId}`)).filter((i) => String(i.sk).startsWith('KB#'))).toHaveLength(1);

    const agent = await createUser(a, { profile: 'user' });
    for (const [method, path] of [
      ['GET', '/knowledge/unanswered'],
      ['POST', `/knowledge/unanswered/${question.id}/draft`],
      ['DELETE', `/knowledge/unanswered/${question.id}`],
      ['POST', '/knowledge/test-bench'],
    ] as const) {
      const res = await api(method, path, {
        token: agent.token,
        body: method === 'POST' ? { promptId: prompt.id } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    await withoutFeature(a, 'useOpenAi');
    const off = await unanswered(a);
    expect(off.status).toBe(403);
    expect(off.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });
});

/** Customers write to a connection without a prompt, then the admin closes their tickets, oldest first. */
async function closedTickets(co: TestCompany, whatsappId: number, questions: string[]) {
  const tickets: { id: number; from: string }[] = [];
  for (const body of questions) {
    const from = number();
    await phone(co.companyId, whatsappId).send({ from, pushName: 'Cliente', body });
    const ticket = await eventually(async () => ticketOf(co, from));
    // the customer writes once more: only the first message is replayed
    await phone(co.companyId, whatsappId).send({ from, body: 'Alguém aí?' });
    await eventually(async () => {
      const page = await api('GET', `/messages/${ticket.id}`, { token: co.adminToken });
      return page.body.messages?.length === 2;
    });
    const closed = await api('PUT', `/tickets/${ticket.id}`, { token: co.adminToken, body: { status: 'closed' } });
    expect(closed.status).toBe(200);
    tickets.push({ id: ticket.id, from });
  }
  // the unread resets of those reads have landed: the tickets no longer change
  for (const t of tickets)
    await eventually(async () => {
      const stored = await table().get(`C#${co.companyId}`, `TICKET#${pad(t.id)}`);
      return stored?.unreadMessages === 0 && stored.status === 'closed';
    });
  return tickets;
}

/** What the bench must leave as it found it: every ticket item and message of the company, and the phone. */
async function snapshot(co: TestCompany, whatsappId: number, ticketIds: number[]) {
  const messages: unknown[] = [];
  for (const id of ticketIds)
    messages.push((await api('GET', `/messages/${id}`, { token: co.adminToken })).body.messages);
  const tickets = (await table().query(`C#${co.companyId}`)).filter((i) => String(i.sk).startsWith('TICKET#'));
  return {
    tickets: tickets.map((t) => [t.sk, t.version, t.updatedAt, t.status]),
    messages,
    outbound: (await phone(co.companyId, whatsappId).outbound()).length,
    unanswered: (await unanswered(co)).body.questions,
  };
}

describe('the test bench (issue 39 item 4)', () => {
  it('replays the first customer message of the last N closed tickets through the agent, sending and storing nothing', async () => {
    const co = await newCompany('kbl3');
    const other = await newCompany('kbl3b');
    const { prompt, apiKey } = await promptFor(co, true);
    const article = await publishedArticle(
      co,
      'Horário de funcionamento',
      'Horário de funcionamento: abrimos de segunda a sexta, das 9h às 18h.',
    );
    // the tickets come through a line without a prompt: nothing answered them
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const tickets = await closedTickets(co, w.id, [
      'Qual o horário de funcionamento?',
      'Quero falar com um atendente',
      'Vocês vendem bicicletas?',
    ]);
    // another company's closed ticket is never replayed
    const wb = await connectedWhatsapp(other.adminToken, other.companyId);
    await closedTickets(other, wb.id, ['Segredo da outra empresa: horário de funcionamento?']);

    const before = await snapshot(
      co,
      w.id,
      tickets.map((t) => t.id),
    );
    const spentBefore = (await table().get(`C#${co.companyId}#AI`, `M#${month()}`)) ?? {};

    // the last 2 closed: the last closed first
    const two = await api('POST', '/knowledge/test-bench', {
      token: co.adminToken,
      body: { promptId: prompt.id, tickets: 2 },
    });
    expect(two.status).toBe(200);
    expect(two.body.map((r: any) => r.ticketId)).toEqual([tickets[2]!.id, tickets[1]!.id]);

    const res = await api('POST', '/knowledge/test-bench', {
      token: co.adminToken,
      body: { promptId: prompt.id, tickets: 10 },
    });
    expect(res.status).toBe(200);
    const rows = res.body as any[];
    expect(rows.map((r) => r.ticketId)).toEqual([tickets[2]!.id, tickets[1]!.id, tickets[0]!.id]);
    const byTicket = new Map(rows.map((r) => [r.ticketId, r]));
    expect(byTicket.get(tickets[0]!.id)).toMatchObject({
      question: 'Qual o horário de funcionamento?',
      handOff: false,
      passages: [{ articleId: article.id, title: 'Horário de funcionamento' }],
    });
    expect(byTicket.get(tickets[0]!.id).answer).toContain('das 9h às 18h');
    expect(byTicket.get(tickets[1]!.id)).toMatchObject({
      question: 'Quero falar com um atendente',
      answer: null,
      handOff: true,
      reason: 'asked_for_person',
    });
    expect(byTicket.get(tickets[2]!.id)).toMatchObject({
      question: 'Vocês vendem bicicletas?',
      answer: null,
      handOff: true,
      reason: 'nothing_found',
      passages: [],
    });
    expect(JSON.stringify(rows)).not.toContain('Segredo');

    // nothing sent, stored or changed: no message, no ticket change, no unanswered question
    expect(
      await snapshot(
        co,
        w.id,
        tickets.map((t) => t.id),
      ),
    ).toEqual(before);
    // the model was asked (once per bench run for the one answerable message), counted as bench
    const calls = await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`);
    expect(calls).toHaveLength(1);
    const spent = await table().get(`C#${co.companyId}#AI`, `M#${month()}`);
    expect(Number(spent?.['calls#bench'] ?? 0) - Number(spentBefore['calls#bench'] ?? 0)).toBe(1);
    expect(spent?.['calls#agent']).toBeUndefined();

    // bad input and another company's prompt
    for (const body of [{ promptId: prompt.id, tickets: 0 }, { promptId: prompt.id, tickets: 21 }, { tickets: 3 }]) {
      const bad = await api('POST', '/knowledge/test-bench', { token: co.adminToken, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error).toBe('ERR_VALIDATION');
    }
    const foreign = await api('POST', '/knowledge/test-bench', {
      token: other.adminToken,
      body: { promptId: prompt.id, tickets: 5 },
    });
    expect(foreign.status).toBe(404);
    // the other company's bench, with a prompt of its own, sees only its own ticket
    const own = await promptFor(other, true);
    const theirs = await api('POST', '/knowledge/test-bench', {
      token: other.adminToken,
      body: { promptId: own.prompt.id, tickets: 20 },
    });
    expect(theirs.body.map((r: any) => r.question)).toEqual(['Segredo da outra empresa: horário de funcionamento?']);
    // its knowledge base is empty: nothing found, never the first company's article
    expect(theirs.body[0]).toMatchObject({ handOff: true, reason: 'nothing_found', passages: [] });
  });
});

describe("the agent's metrics on the dashboard (issue 39 item 6)", () => {
  it('agent-resolved against person-resolved tickets, hand-offs and their rate, CSAT of each and AI spend, from counters kept by the writes', async () => {
    const co = await newCompany('kbl4');
    const other = await newCompany('kbl4b');
    const { prompt, apiKey } = await promptFor(co, false);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { promptId: prompt.id });
    await api('PUT', `/whatsapp/${w.id}`, { token: co.adminToken, body: { ratingMessage: 'Avalie' } });
    await api('PUT', '/settings/userRating', { token: co.adminToken, body: { value: 'enabled' } });
    const p = phone(co.companyId, w.id);
    const put = async (id: number, body: Record<string, unknown>) => {
      const res = await api('PUT', `/tickets/${id}`, { token: co.adminToken, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const asked = async () => (await p.outbound()).filter((o: any) => String(o.body).startsWith('Avalie')).length;
    /** closes the ticket (`body`), waits for the rating question and answers it */
    const closeAndRate = async (from: string, ticketId: number, body: Record<string, unknown>, rating: number) => {
      const before = await asked();
      await put(ticketId, { status: 'closed', ...body });
      await eventually(async () => (await asked()) > before || undefined);
      await p.send({ from, body: String(rating) });
      await eventually(
        async () => (await api('GET', `/tickets/${ticketId}`, { token: co.adminToken })).body.rating === rating,
      );
    };
    const answered = async (from: string, body: string) => {
      const sent = (await p.outbound()).length;
      await p.send({ from, pushName: 'Cliente', body });
      await eventually(async () => (await p.outbound()).length > sent || undefined);
      return eventually(async () => ticketOf(co, from));
    };

    // 1. the AI answers and the ticket is closed while it holds it: resolved by the agent, rated 3
    const c1 = number();
    const t1 = await answered(c1, 'Qual o preço do frete?');
    expect(t1.promptId).toBe(prompt.id);
    await closeAndRate(c1, t1.id, {}, 3);

    // 2. the customer asks for a person: a hand-off; a person answers and closes, rated 1
    const c2 = number();
    await answered(c2, 'Quero falar com um humano');
    const t2 = await eventually(async () => {
      const t = await ticketOf(co, c2);
      return t?.promptId === null ? t : undefined;
    });
    await put(t2.id, { status: 'open', userId: co.admin.id });
    expect(
      (await api('POST', `/messages/${t2.id}`, { token: co.adminToken, body: { body: 'Olá, sou a Ana.' } })).status,
    ).toBeLessThan(300);
    await closeAndRate(c2, t2.id, { userId: co.admin.id }, 1);

    // 3. the AI answers, a person takes it and gives it back, then it is closed: people's (they took it), rated 2
    const c3 = number();
    const t3 = await answered(c3, 'Oi, tudo bem?');
    await put(t3.id, { status: 'open', userId: co.admin.id });
    await put(t3.id, { status: 'pending', userId: null });
    await closeAndRate(c3, t3.id, {}, 2);

    const calls = await fake<any[]>('GET', `/@openai/_requests?apiKey=${encodeURIComponent(apiKey)}`);
    const spent = (await table().get(`C#${co.companyId}#AI`, `M#${month()}`))!;
    const res = await api('GET', '/dashboard?days=1', { token: co.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.agent).toEqual({
      resolved: 1,
      peopleResolved: 2,
      handOffs: 1,
      handOffRate: 50,
      csat: {
        agent: { ratings: 1, satisfied: 1, percent: 100, average: 3 },
        people: { ratings: 2, satisfied: 1, percent: 50, average: 1.5 },
      },
      spend: { calls: calls.length, tokens: spent.tokens },
    });
    expect(calls.length).toBe(3);
    expect(spent.tokens).toBeGreaterThan(0);
    // the counters live on the dashboard's day items: the tickets are not read
    for (const t of [t1, t2, t3]) await rawTable().del(`C#${co.companyId}`, `TICKET#${pad(t.id)}`);
    expect((await api('GET', '/dashboard?days=1', { token: co.adminToken })).body.agent).toEqual(res.body.agent);

    // another company sees none of it
    expect((await api('GET', '/dashboard?days=1', { token: other.adminToken })).body.agent).toEqual({
      resolved: 0,
      peopleResolved: 0,
      handOffs: 0,
      handOffRate: null,
      csat: {
        agent: { ratings: 0, satisfied: 0, percent: null, average: null },
        people: { ratings: 0, satisfied: 0, percent: null, average: null },
      },
      spend: { calls: 0, tokens: 0 },
    });
  });
});
