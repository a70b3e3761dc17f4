import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, createVerify, randomUUID } from 'node:crypto';
import { PROMPT_TRANSFER_PHRASE } from '../../shared/schemas/prompts';
import {
  NO_ANSWER_MARKER,
  type KnowledgeBlock,
  passageMarker,
  readConversationBlock,
  readKnowledgeBlock,
} from '../../shared/knowledge-protocol';

/**
 * Local fakes of the AI and bot providers (local stack only; nothing reaches the internet):
 * - `/@openai/v1/chat/completions`: OpenAI-compatible (OPENAI_BASE_URL points here). It echoes the
 *   customer's last message, and answers the transfer phrase when it asks for a "humano"/"human".
 *   A request with a knowledge block (shared/knowledge-protocol.ts) is answered like a grounded model:
 *   the first passage sharing a word with the question, then its marker; the no-answer marker when no
 *   passage does. A conversation block gets a one-line summary. It reports `usage` (words as tokens).
 *   Hooks per apiKey: `POST /@openai/_script`
 *   `{ apiKey, replies?, delayMs?, status?, transcriptionStatus?, embeddingsStatus? }`, `GET /@openai/_requests?apiKey=`.
 * - `/@openai/v1/audio/transcriptions`: multipart `file` + `model`; the transcript is the file's text
 *   after its first NUL byte (tests send a format's magic bytes, NUL, then the words), so a test sees
 *   which file was sent. `transcriptionStatus` answers that status instead (404: a provider without
 *   transcription). `GET /@openai/_transcriptions?apiKey=` lists each upload (model, file name,
 *   type, size, sha256).
 * - `/@openai/v1/embeddings`: `{ model, input: string | string[] }` answered in OpenAI's shape with
 *   fakeEmbedding's vectors. `embeddingsStatus` answers that status instead (404: a provider without
 *   embeddings). `GET /@openai/_embeddings?apiKey=` lists each call (model, number of inputs), so a
 *   test sees what was embedded and when.
 * - `/@typebot/api/v1/...`: Typebot's chat API with one flow (choice Vendas/Suporte, then an e-mail,
 *   then the end). Slug `slow` never answers. `GET /@typebot/_requests?slug=`.
 * - `/@webhook/{id}`: a receiver that records each POST with its headers. `POST /@webhook/{id}/_script`
 *   `{ status?, reply?, replies?, transfer?, delayMs? }`, `GET /@webhook/{id}/_requests`.
 * - `/@dialogflow/token` (DIALOGFLOW_TOKEN_URL) checks the RS256 service-account assertion (against a
 *   public key registered with `POST /@dialogflow/_keys` `{ clientEmail, publicKey }`), and
 *   `/@dialogflow/v2/projects/{p}/agent/sessions/{s}:detectIntent` answers with a fulfillment text
 *   (ending the interaction when asked for a "humano"). `GET /@dialogflow/_requests?project=`.
 */
/** request bodies of a fake: free-form JSON read loosely */
// biome-ignore lint/suspicious/noExplicitAny: a fake reads whatever JSON its caller sent
type Json = Record<string, any>;
type Handler = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => Promise<void>;

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const parse = (raw: Buffer) => (raw.length ? (JSON.parse(raw.toString()) as Json) : {});
const asksForPeople = (text: string) => /\b(humano|human|atendente)\b/i.test(text);

/** Folded words of 4 letters or more: what the fake counts as "saying something" about a question. */
const keyWords = (text: string) =>
  new Set(
    (
      text
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? []
    ).filter((w) => w.length >= 4),
  );

/** A grounded model's answer: the first passage sharing a word with the question, or the no-answer marker. */
function groundedAnswer(block: KnowledgeBlock, question: string): string {
  const asked = keyWords(question);
  const passage = block.passages.find((p) => [...keyWords(`${p.article} ${p.text}`)].some((w) => asked.has(w)));
  return passage ? `${passage.text}\n${passageMarker(passage.n)}` : NO_ANSWER_MARKER;
}

/** dimensions of the fake's embeddings */
export const FAKE_EMBEDDING_DIMS = 256;

/**
 * A FAKE embedding, deterministic and not semantic: the text's folded words (weight 1) and their
 * character trigrams (weight 0.5) hashed into FAKE_EMBEDDING_DIMS signed buckets, L2-normalized. Texts
 * sharing words or parts of words come out close; synonyms and translations do not (a real model's
 * do). The local fake provider answers with it, and the retrieval benchmark ranks with it in process.
 */
export function fakeEmbedding(text: string, dims = FAKE_EMBEDDING_DIMS): Float32Array {
  const vector = new Float32Array(dims);
  const add = (feature: string, weight: number) => {
    const h = createHash('md5').update(feature).digest();
    vector[h.readUInt32LE(0) % dims]! += (h[4]! & 1 ? 1 : -1) * weight;
  };
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  for (const word of folded.match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.5);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

export function openAiFake(): Handler {
  const scripts = new Map<
    string,
    { replies: string[]; delayMs: number; status?: number; transcriptionStatus?: number; embeddingsStatus?: number }
  >();
  const embeddings: { apiKey: string; model: string; inputs: number }[] = [];
  const requests: { apiKey: string; body: Json }[] = [];
  const uploads: { apiKey: string; model: string; fileName: string; type: string; size: number; sha256: string }[] = [];
  return async (req, res, raw) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice('/@openai'.length);
    if (path === '/_script') {
      const body = parse(raw);
      scripts.set(body.apiKey, {
        replies: body.replies ?? [],
        delayMs: body.delayMs ?? 0,
        status: body.status,
        transcriptionStatus: body.transcriptionStatus,
        embeddingsStatus: body.embeddingsStatus,
      });
      return send(res, 200, { ok: true });
    }
    if (path === '/_requests')
      return send(
        res,
        200,
        requests.filter((r) => r.apiKey === url.searchParams.get('apiKey')),
      );
    if (path === '/_transcriptions')
      return send(
        res,
        200,
        uploads.filter((u) => u.apiKey === url.searchParams.get('apiKey')),
      );
    if (path === '/_embeddings')
      return send(
        res,
        200,
        embeddings.filter((e) => e.apiKey === url.searchParams.get('apiKey')),
      );
    const known = ['/v1/chat/completions', '/v1/audio/transcriptions', '/v1/embeddings'].includes(path);
    if (!known || req.method !== 'POST') return send(res, 404, { error: 'not found' });
    const apiKey = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!apiKey) return send(res, 401, { error: { message: 'missing api key' } });
    if (path === '/v1/embeddings') {
      const body = parse(raw);
      const status = scripts.get(apiKey)?.embeddingsStatus;
      if (status) return send(res, status, { error: { message: 'scripted embeddings answer' } });
      const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
      if (!inputs.length || inputs.some((t) => typeof t !== 'string'))
        return send(res, 400, { error: { message: 'input must be a string or an array of strings' } });
      embeddings.push({ apiKey, model: String(body.model ?? ''), inputs: inputs.length });
      return send(res, 200, {
        object: 'list',
        model: body.model,
        data: inputs.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: Array.from(fakeEmbedding(text as string)),
        })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    }
    if (path === '/v1/audio/transcriptions') {
      // the platform's own multipart parser (a fake needs no other)
      const form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      })
        .formData()
        .catch(() => undefined);
      const file = form?.get('file');
      if (!(file instanceof File)) return send(res, 400, { error: { message: 'file required' } });
      const bytes = Buffer.from(await file.arrayBuffer());
      uploads.push({
        apiKey,
        model: String(form?.get('model') ?? ''),
        fileName: file.name,
        type: file.type,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      const status = scripts.get(apiKey)?.transcriptionStatus;
      if (status) return send(res, status, { error: { message: 'scripted transcription answer' } });
      const nul = bytes.indexOf(0);
      return send(res, 200, { text: nul >= 0 ? bytes.subarray(nul + 1).toString('utf8') : '' });
    }
    const body = parse(raw);
    requests.push({ apiKey, body });
    const script = scripts.get(apiKey);
    if (script?.delayMs) await sleep(script.delayMs);
    if (script?.status) return send(res, script.status, { error: { message: 'scripted failure' } });
    const messages: { role: string; content: string }[] = body.messages ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const knowledge = messages
      .map((m) => (m.role === 'user' ? readKnowledgeBlock(m.content) : undefined))
      .find(Boolean);
    const conversation = messages
      .map((m) => (m.role === 'user' ? readConversationBlock(m.content) : undefined))
      .find(Boolean);
    const content =
      script?.replies.shift() ??
      (conversation
        ? `O cliente perguntou: ${[...conversation.turns].reverse().find((t) => t.from === 'customer')?.text ?? ''}`
        : asksForPeople(lastUser?.content ?? '')
          ? `Claro! ${PROMPT_TRANSFER_PHRASE}`
          : knowledge
            ? groundedAnswer(knowledge, lastUser?.content ?? '')
            : `Resposta da IA para: ${lastUser?.content ?? ''}`);
    const tokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const promptTokens = messages.reduce((sum, m) => sum + tokens(String(m.content ?? '')), 0);
    return send(res, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: tokens(content),
        total_tokens: promptTokens + tokens(content),
      },
    });
  };
}

export function typebotFake(): Handler {
  const sessions = new Map<string, { step: 'choice' | 'email'; name: string }>();
  const requests: { slug?: string; sessionId?: string; body: Json }[] = [];
  const text = (t: string) => ({
    type: 'text',
    content: { type: 'richText', richText: [{ type: 'p', children: [{ text: t }] }] },
  });
  return async (req, res, raw) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice('/@typebot'.length);
    if (path === '/_requests')
      return send(
        res,
        200,
        requests.filter((r) => r.slug === url.searchParams.get('slug')),
      );
    const body = parse(raw);
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    if (start && req.method === 'POST') {
      const slug = decodeURIComponent(start[1]!);
      requests.push({ slug, body });
      if (slug === 'slow') await sleep(10_000);
      const sessionId = `${slug}:${randomUUID()}`;
      const name = body.prefilledVariables?.name ?? '';
      sessions.set(sessionId, { step: 'choice', name });
      return send(res, 200, {
        sessionId,
        messages: [text(`Olá ${name}! Escolha um setor:`)],
        input: { type: 'choice input', items: [{ content: 'Vendas' }, { content: 'Suporte' }] },
      });
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (cont && req.method === 'POST') {
      const sessionId = decodeURIComponent(cont[1]!);
      requests.push({ slug: sessionId.split(':')[0], sessionId, body });
      const session = sessions.get(sessionId);
      if (!session) return send(res, 404, { message: 'Session not found' });
      const answer = String(body.message?.text ?? body.message ?? '');
      if (session.step === 'choice') {
        if (!['Vendas', 'Suporte'].includes(answer))
          return send(res, 200, {
            messages: [],
            input: { type: 'choice input', items: [{ content: 'Vendas' }, { content: 'Suporte' }] },
          });
        session.step = 'email';
        return send(res, 200, {
          messages: [text(`Você escolheu ${answer}.`), text('Qual o seu e-mail?')],
          input: { type: 'email input' },
        });
      }
      sessions.delete(sessionId);
      return send(res, 200, { messages: [text(`Obrigado! Vamos escrever para ${answer}.`)] });
    }
    return send(res, 404, { message: 'not found' });
  };
}

export function webhookFake(): Handler {
  const scripts = new Map<string, Json>();
  const requests = new Map<string, { headers: Record<string, unknown>; raw: string }[]>();
  return async (req, res, raw) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const [id, hook] = url.pathname.slice('/@webhook/'.length).split('/');
    if (!id) return send(res, 404, { error: 'not found' });
    if (hook === '_script') {
      scripts.set(id, parse(raw));
      return send(res, 200, { ok: true });
    }
    if (hook === '_requests') return send(res, 200, requests.get(id) ?? []);
    if (req.method !== 'POST') return send(res, 405, { error: 'method' });
    const list = requests.get(id) ?? [];
    list.push({ headers: req.headers, raw: raw.toString() });
    requests.set(id, list);
    const script = scripts.get(id) ?? {};
    if (script.delayMs) await sleep(script.delayMs);
    const { status = 200, delayMs: _d, ...answer } = script;
    return send(res, status, answer);
  };
}

export function dialogflowFake(tokenUrl: string): Handler {
  const publicKeys = new Map<string, string>();
  const issued = new Set<string>();
  const requests: { project: string; session: string; body: Json }[] = [];
  return async (req, res, raw) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice('/@dialogflow'.length);
    if (path === '/_keys') {
      const body = parse(raw);
      publicKeys.set(body.clientEmail, body.publicKey);
      return send(res, 200, { ok: true });
    }
    if (path === '/_requests')
      return send(
        res,
        200,
        requests.filter((r) => r.project === url.searchParams.get('project')),
      );
    if (path === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(raw.toString());
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return send(res, 400, { error: 'unsupported_grant_type' });
      const [h, c, sig] = (form.get('assertion') ?? '').split('.');
      try {
        const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
        const claims = JSON.parse(Buffer.from(c!, 'base64url').toString());
        const key = publicKeys.get(claims.iss);
        const now = Math.floor(Date.now() / 1000);
        const valid =
          header.alg === 'RS256' &&
          claims.aud === tokenUrl &&
          claims.exp > now &&
          key !== undefined &&
          createVerify('RSA-SHA256').update(`${h}.${c}`).verify(key, Buffer.from(sig!, 'base64url'));
        if (!valid) return send(res, 400, { error: 'invalid_grant' });
      } catch {
        return send(res, 400, { error: 'invalid_grant' });
      }
      const token = `ya29.${randomUUID()}`;
      issued.add(token);
      return send(res, 200, { access_token: token, expires_in: 3600, token_type: 'Bearer' });
    }
    const detect = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/]+):detectIntent$/.exec(path);
    if (detect && req.method === 'POST') {
      if (!issued.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
        return send(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      const body = parse(raw);
      const project = decodeURIComponent(detect[1]!);
      requests.push({ project, session: decodeURIComponent(detect[2]!), body });
      if (project === 'slow') await sleep(10_000);
      const text: string = body.queryInput?.text?.text ?? '';
      const language: string = body.queryInput?.text?.languageCode ?? '';
      const handOff = asksForPeople(text);
      return send(res, 200, {
        responseId: randomUUID(),
        queryResult: {
          queryText: text,
          languageCode: language,
          fulfillmentText: handOff ? 'Vou chamar um atendente.' : `Dialogflow (${language}): ${text}`,
          intent: { displayName: handOff ? 'handoff' : 'echo', endInteraction: handOff },
        },
      });
    }
    return send(res, 404, { error: 'not found' });
  };
}
