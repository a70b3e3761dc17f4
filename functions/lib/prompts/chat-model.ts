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

/** The port for AI answers: one chat completion. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<string>;
}

/**
 * An OpenAI-compatible `POST {base}/chat/completions` adapter (OPENAI_BASE_URL: OpenAI, or any
 * compatible provider; the local stack points it at its fake). Timeouts and retries per callProvider.
 */
export function openAiCompatible(baseUrl = config().openAiBaseUrl): ChatModel {
  return {
    complete: (request) =>
      callProvider('openai', async (signal) => {
        const out = (await postJson(
          `${baseUrl.replace(/\/+$/, '')}/chat/completions`,
          {
            model: request.model,
            messages: request.messages,
            max_tokens: request.maxTokens,
            temperature: request.temperature,
          },
          signal,
          { authorization: `Bearer ${request.apiKey}` },
        )) as { choices?: { message?: { content?: string | null } }[] } | undefined;
        const content = out?.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new ProviderError('no answer in the completion', false);
        return content;
      }),
  };
}
