import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAKE_EMBEDDING_DIMS, fakeEmbedding, openAiFake } from '../../../infra/local/ai-fakes';
import { EMBED_BATCH, EmbeddingsNotOffered, openAiCompatible } from './chat-model';

vi.mock('../config', () => ({
  config: () => ({ aiTimeoutMs: 1000, aiRetries: 2, aiRetryBaseMs: 1, providerPrivateUrls: true }),
}));

const audio = { data: Buffer.from('OggS\0hello'), mimetype: 'audio/ogg', fileName: 'voice.ogg' };

/** A local provider answering `status` and `body` to every call, recording each request. */
const closing: (() => void)[] = [];
async function answering(status: number, body: unknown | ((request: Buffer) => unknown) = {}) {
  const calls: { req: IncomingMessage; body: Buffer }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    calls.push({ req, body: raw });
    const answer = typeof body === 'function' ? body(raw) : body;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closing.push(() => server.close());
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls };
}

afterEach(() => {
  for (const close of closing.splice(0)) close();
});

describe('audio transcription through an OpenAI-compatible provider', () => {
  it('posts the file and the model as multipart to {base}/audio/transcriptions and answers the text', async () => {
    const ai = await answering(200, { text: ' olá \n' });
    const text = await openAiCompatible(`${ai.base}/`).transcribe({ apiKey: 'sk-1', audio });
    expect(text).toBe('olá');
    const [{ req, body }] = ai.calls as [{ req: IncomingMessage; body: Buffer }];
    expect(req.url).toBe('/v1/audio/transcriptions');
    expect(req.headers.authorization).toBe('Bearer sk-1');
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': req.headers['content-type']! },
    }).formData();
    expect(form.get('model')).toBe('whisper-1');
    expect((form.get('file') as File).name).toBe('voice.ogg');
    expect(Buffer.from(await (form.get('file') as File).arrayBuffer())).toEqual(audio.data);
  });

  it.each([404, 405, 501])(
    'a provider without the endpoint (HTTP %i) is told apart and not retried',
    async (status) => {
      const ai = await answering(status);
      await expect(openAiCompatible(ai.base).transcribe({ apiKey: 'k', audio })).rejects.toThrow(
        `audio transcription not offered by the provider, HTTP ${status}`,
      );
      expect(ai.calls).toHaveLength(1);
    },
  );

  it('a failing provider is retried like the chat call; an empty transcript is a failure', async () => {
    const failing = await answering(503);
    await expect(openAiCompatible(failing.base).transcribe({ apiKey: 'k', audio })).rejects.toThrow('HTTP 503');
    expect(failing.calls).toHaveLength(3);
    const empty = await answering(200, { text: '  ' });
    await expect(openAiCompatible(empty.base).transcribe({ apiKey: 'k', audio })).rejects.toThrow(
      'empty audio transcription',
    );
  });
});

/** An embeddings answer in OpenAI's shape, rows in reverse order (the index says where each belongs). */
const embeddingsOf = (raw: Buffer) => {
  const { input } = JSON.parse(raw.toString()) as { input: string[] };
  return {
    object: 'list',
    data: input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, index] })).reverse(),
  };
};

describe('embeddings through an OpenAI-compatible provider', () => {
  it('posts the model and the texts to {base}/embeddings and answers one vector per text, in order', async () => {
    const ai = await answering(200, embeddingsOf);
    const vectors = await openAiCompatible(ai.base).embed({ apiKey: 'sk-2', texts: ['a', 'bb', 'ccc'] });
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    const [{ req, body }] = ai.calls as [{ req: IncomingMessage; body: Buffer }];
    expect(req.url).toBe('/v1/embeddings');
    expect(req.headers.authorization).toBe('Bearer sk-2');
    expect(JSON.parse(body.toString())).toEqual({ model: 'text-embedding-3-small', input: ['a', 'bb', 'ccc'] });
  });

  it(`sends at most ${EMBED_BATCH} texts a request and keeps the order across batches`, async () => {
    const ai = await answering(200, embeddingsOf);
    const texts = Array.from({ length: EMBED_BATCH * 2 + 5 }, (_, i) => 'x'.repeat(i + 1));
    const vectors = await openAiCompatible(ai.base).embed({ apiKey: 'k', model: 'my-model', texts });
    expect(ai.calls.map((c) => JSON.parse(c.body.toString()).input.length)).toEqual([EMBED_BATCH, EMBED_BATCH, 5]);
    expect(JSON.parse(ai.calls[0]!.body.toString()).model).toBe('my-model');
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
  });

  it.each([404, 405, 501])(
    'a provider without the endpoint (HTTP %i) is told apart and not retried',
    async (status) => {
      const ai = await answering(status);
      const err = await openAiCompatible(ai.base)
        .embed({ apiKey: 'k', texts: ['a'] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmbeddingsNotOffered);
      expect((err as Error).message).toBe(`embeddings not offered by the provider, HTTP ${status}`);
      expect(ai.calls).toHaveLength(1);
    },
  );

  it('a failing provider is retried and is not mistaken for one without embeddings', async () => {
    const ai = await answering(503);
    const err = await openAiCompatible(ai.base)
      .embed({ apiKey: 'k', texts: ['a'] })
      .catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(EmbeddingsNotOffered);
    expect((err as Error).message).toBe('HTTP 503');
    expect(ai.calls).toHaveLength(3);
  });

  it('an answer missing a vector, or with vectors of different sizes, is a failure', async () => {
    const short = await answering(200, { data: [{ index: 0, embedding: [1, 2] }] });
    await expect(openAiCompatible(short.base).embed({ apiKey: 'k', texts: ['a', 'b'] })).rejects.toThrow(
      'embeddings missing from the answer',
    );
    const ragged = await answering(200, {
      data: [
        { index: 0, embedding: [1, 2] },
        { index: 1, embedding: [1] },
      ],
    });
    await expect(openAiCompatible(ragged.base).embed({ apiKey: 'k', texts: ['a', 'b'] })).rejects.toThrow(
      'embeddings missing from the answer',
    );
  });
});

describe('the local fake provider answers embeddings', () => {
  /** the local stack's OpenAI fake on a port of its own */
  async function fake() {
    const handle = openAiFake();
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      await handle(req, res, Buffer.concat(chunks));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closing.push(() => server.close());
    const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/@openai`;
    return { base: `${root}/v1`, root };
  }

  it('in the OpenAI shape, deterministic, one normalized vector per text, closer for texts sharing words', async () => {
    const { base, root } = await fake();
    const [a, b, c] = await openAiCompatible(base).embed({
      apiKey: 'k',
      texts: ['Segunda via da fatura', 'segunda via da FATURA', 'receita de paella'],
    });
    expect(a).toHaveLength(FAKE_EMBEDDING_DIMS);
    expect(Array.from(a!)).toEqual(Array.from(fakeEmbedding('Segunda via da fatura')));
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((sum, v, i) => sum + v * y[i]!, 0);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeCloseTo(1, 5);
    expect(dot(a!, c!)).toBeLessThan(0.5);
    expect(await (await fetch(`${root}/_embeddings?apiKey=k`)).json()).toEqual([
      { apiKey: 'k', model: 'text-embedding-3-small', inputs: 3 },
    ]);
  });

  it('answers a scripted status for a key: a provider without embeddings', async () => {
    const { base, root } = await fake();
    await fetch(`${root}/_script`, { method: 'POST', body: JSON.stringify({ apiKey: 'none', embeddingsStatus: 404 }) });
    await expect(openAiCompatible(base).embed({ apiKey: 'none', texts: ['a'] })).rejects.toBeInstanceOf(
      EmbeddingsNotOffered,
    );
    expect(await openAiCompatible(base).embed({ apiKey: 'other', texts: ['a'] })).toHaveLength(1);
  });
});
