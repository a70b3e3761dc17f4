import { config } from '../config';
import { ProviderError, callProvider, postJson } from '../integrations/call';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  apiKey: string;
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
}

export interface TranscriptionRequest {
  apiKey: string;
  audio: { data: Buffer; mimetype: string; fileName: string };
}

/** A completion with what it cost, as the provider reports it (0 when it does not). */
export interface ChatAnswer {
  text: string;
  tokens: number;
}

/** The port for AI answers: one chat completion, and the text of a customer's audio. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<string>;
  /** `complete` with the tokens the provider billed (usage.total_tokens) */
  chat(request: ChatRequest): Promise<ChatAnswer>;
  transcribe(request: TranscriptionRequest): Promise<string>;
}

/** OpenAI's speech-to-text model, a name compatible providers accept too (or map to their default). */
const TRANSCRIPTION_MODEL = 'whisper-1';

/** How a provider says it has no transcription endpoint. */
const NOT_OFFERED = new Set([404, 405, 501]);

/**
 * An OpenAI-compatible adapter (OPENAI_BASE_URL: OpenAI, or any compatible provider; the local stack
 * points it at its fake): `POST {base}/chat/completions` and `POST {base}/audio/transcriptions`.
 * Timeouts and retries per callProvider.
 */
export function openAiCompatible(baseUrl = config().openAiBaseUrl): ChatModel {
  const base = baseUrl.replace(/\/+$/, '');
  const chat = (request: ChatRequest) =>
    callProvider('openai', async (signal): Promise<ChatAnswer> => {
      const out = (await postJson(
        `${base}/chat/completions`,
        {
          model: request.model,
          messages: request.messages,
          max_tokens: request.maxTokens,
          temperature: request.temperature,
        },
        signal,
        { authorization: `Bearer ${request.apiKey}` },
      )) as { choices?: { message?: { content?: string | null } }[]; usage?: { total_tokens?: unknown } } | undefined;
      const content = out?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new ProviderError('no answer in the completion', false);
      const tokens = Number(out?.usage?.total_tokens);
      return { text: content, tokens: Number.isFinite(tokens) && tokens > 0 ? tokens : 0 };
    });
  return {
    chat,
    complete: async (request) => (await chat(request)).text,

    transcribe: ({ apiKey, audio }) =>
      callProvider('openai-transcription', async (signal) => {
        const form = new FormData();
        form.append('model', TRANSCRIPTION_MODEL);
        // Blob takes ArrayBuffer-backed views only; a Buffer may share a pooled one, so its bytes are copied
        form.append('file', new Blob([new Uint8Array(audio.data)], { type: audio.mimetype }), audio.fileName);
        let out: { text?: unknown } | undefined;
        try {
          out = (await postJson(`${base}/audio/transcriptions`, form, signal, {
            authorization: `Bearer ${apiKey}`,
          })) as { text?: unknown } | undefined;
        } catch (err) {
          if (err instanceof ProviderError && err.status && NOT_OFFERED.has(err.status))
            throw new ProviderError(`audio transcription not offered by the provider, HTTP ${err.status}`, false);
          throw err;
        }
        const text = typeof out?.text === 'string' ? out.text.trim() : '';
        if (!text) throw new ProviderError('empty audio transcription', false);
        return text;
      }),
  };
}
