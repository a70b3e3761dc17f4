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

export interface EmbeddingRequest {
  apiKey: string;
  /** DEFAULT_EMBEDDING_MODEL unless named */
  model?: string;
  texts: string[];
}

/** The port for AI answers: one chat completion, the text of a customer's audio, and embeddings. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<string>;
  /** `complete` with the tokens the provider billed (usage.total_tokens) */
  chat(request: ChatRequest): Promise<ChatAnswer>;
  transcribe(request: TranscriptionRequest): Promise<string>;
  /** one vector per text, in order; EmbeddingsNotOffered when the provider has no such endpoint */
  embed(request: EmbeddingRequest): Promise<Float32Array[]>;
}

/** OpenAI's speech-to-text model, a name compatible providers accept too (or map to their default). */
const TRANSCRIPTION_MODEL = 'whisper-1';

/** OpenAI's small embedding model (1536 dimensions), a name compatible providers accept or map. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/** texts per embeddings request (OpenAI takes up to 2048; passages are ~700 characters) */
export const EMBED_BATCH = 96;

/** How a provider says it has no transcription (or embeddings) endpoint. */
const NOT_OFFERED = new Set([404, 405, 501]);

/** The provider has no embeddings endpoint (404/405/501): retrieval goes on lexical only. */
export class EmbeddingsNotOffered extends ProviderError {
  constructor(status: number) {
    super(`embeddings not offered by the provider, HTTP ${status}`, false, status);
  }
}

/**
 * An OpenAI-compatible adapter (OPENAI_BASE_URL: OpenAI, or any compatible provider; the local stack
 * points it at its fake): `POST {base}/chat/completions`, `POST {base}/audio/transcriptions` and
 * `POST {base}/embeddings` (batches of EMBED_BATCH, each with its own timeout and retries).
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

    embed: async ({ apiKey, model = DEFAULT_EMBEDDING_MODEL, texts }) => {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH) {
        const batch = texts.slice(i, i + EMBED_BATCH);
        vectors.push(
          ...(await callProvider('openai-embeddings', (signal) => embedBatch(base, apiKey, model, batch, signal))),
        );
      }
      return vectors;
    },
  };
}

async function embedBatch(
  base: string,
  apiKey: string,
  model: string,
  texts: string[],
  signal: AbortSignal,
): Promise<Float32Array[]> {
  let out: { data?: { index?: unknown; embedding?: unknown }[] } | undefined;
  try {
    out = (await postJson(`${base}/embeddings`, { model, input: texts }, signal, {
      authorization: `Bearer ${apiKey}`,
    })) as typeof out;
  } catch (err) {
    if (err instanceof ProviderError && err.status && NOT_OFFERED.has(err.status))
      throw new EmbeddingsNotOffered(err.status);
    throw err;
  }
  const vectors: Float32Array[] = new Array(texts.length);
  for (const [at, row] of (Array.isArray(out?.data) ? out.data : []).entries()) {
    const index = typeof row?.index === 'number' ? row.index : at;
    const values = row?.embedding;
    if (!Array.isArray(values) || !values.length || values.some((x) => typeof x !== 'number'))
      throw new ProviderError('malformed embedding', false);
    vectors[index] = Float32Array.from(values as number[]);
  }
  const dims = vectors[0]?.length;
  for (let i = 0; i < texts.length; i++)
    if (!vectors[i] || vectors[i]!.length !== dims)
      throw new ProviderError('embeddings missing from the answer', false);
  return vectors;
}
