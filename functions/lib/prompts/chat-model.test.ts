import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAiCompatible } from './chat-model';

vi.mock('../config', () => ({
  config: () => ({ aiTimeoutMs: 1000, aiRetries: 2, aiRetryBaseMs: 1, providerPrivateUrls: true }),
}));

const audio = { data: Buffer.from('OggS\0hello'), mimetype: 'audio/ogg', fileName: 'voice.ogg' };

function answering(status: number, body: unknown = {}) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('audio transcription through an OpenAI-compatible provider', () => {
  it('posts the file and the model as multipart to {base}/audio/transcriptions and answers the text', async () => {
    const fetch = answering(200, { text: ' olá \n' });
    const text = await openAiCompatible('http://ai.test/v1/').transcribe({ apiKey: 'sk-1', audio });
    expect(text).toBe('olá');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://ai.test/v1/audio/transcriptions');
    expect(init.headers).toEqual({ authorization: 'Bearer sk-1' });
    const form = init.body as FormData;
    expect(form.get('model')).toBe('whisper-1');
    expect((form.get('file') as File).name).toBe('voice.ogg');
    expect(Buffer.from(await (form.get('file') as File).arrayBuffer())).toEqual(audio.data);
  });

  it.each([404, 405, 501])(
    'a provider without the endpoint (HTTP %i) is told apart and not retried',
    async (status) => {
      const fetch = answering(status);
      await expect(openAiCompatible('http://ai.test/v1').transcribe({ apiKey: 'k', audio })).rejects.toThrow(
        `audio transcription not offered by the provider, HTTP ${status}`,
      );
      expect(fetch).toHaveBeenCalledTimes(1);
    },
  );

  it('a failing provider is retried like the chat call; an empty transcript is a failure', async () => {
    const failing = answering(503);
    await expect(openAiCompatible('http://ai.test/v1').transcribe({ apiKey: 'k', audio })).rejects.toThrow('HTTP 503');
    expect(failing).toHaveBeenCalledTimes(3);
    answering(200, { text: '  ' });
    await expect(openAiCompatible('http://ai.test/v1').transcribe({ apiKey: 'k', audio })).rejects.toThrow(
      'empty audio transcription',
    );
  });
});
