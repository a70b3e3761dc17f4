import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAiCompatible } from './chat-model';

vi.mock('../config', () => ({
  config: () => ({ aiTimeoutMs: 1000, aiRetries: 2, aiRetryBaseMs: 1, providerPrivateUrls: true }),
}));

const audio = { data: Buffer.from('OggS\0hello'), mimetype: 'audio/ogg', fileName: 'voice.ogg' };

/** A local provider answering `status` and `body` to every call, recording each request. */
const closing: (() => void)[] = [];
async function answering(status: number, body: unknown = {}) {
  const calls: { req: IncomingMessage; body: Buffer }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    calls.push({ req, body: Buffer.concat(chunks) });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
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
