import { z } from 'zod';
import { MSG, bodyId, bodyInt } from './common';

/** The models the prompt dialog offers (management.md 3): the first is the default. */
export const PROMPT_MODELS = [
  { value: 'gpt-3.5-turbo-1106', label: 'GPT 3.5 turbo' },
  { value: 'gpt-4o-mini', label: 'GPT 4.0' },
] as const;
export const DEFAULT_PROMPT_MODEL = PROMPT_MODELS[0].value;

/** Section 9 defaults. */
export const PROMPT_DEFAULTS = { maxTokens: 100, temperature: 1, maxMessages: 10 } as const;
export const PROMPT_MAX_TOKENS = 4096;
export const PROMPT_MAX_MESSAGES = 50;

/**
 * The agreed transfer phrase: when the model's answer contains it, the ticket goes to the prompt's
 * queue for a human and the phrase itself is never sent to the customer. The server tells the model
 * about it after the prompt; a prompt may mention it too.
 */
export const PROMPT_TRANSFER_PHRASE = 'Ação: Transferir para o setor de atendimento';

/** What an apiKey looks like in every answer: never the key itself. */
export const MASKED_SECRET = '********';
export const isMaskedSecret = (value: string) => value.includes(MASKED_SECRET);

/** Temperature 0 to 1 in steps of 0.1 (management.md 5 and 9). */
const temperature = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/)
        .transform(Number),
    ],
    { error: MSG.required },
  )
  .pipe(
    z
      .number()
      .min(0, MSG.invalid)
      .max(1, MSG.invalid)
      .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, MSG.invalid),
  );

const promptFields = {
  name: z.string({ error: MSG.required }).trim().min(5, MSG.short).max(100, MSG.long),
  prompt: z.string({ error: MSG.required }).trim().min(50, MSG.short).max(20000, MSG.long),
  model: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.long),
  maxTokens: bodyInt.pipe(z.number().min(1, MSG.invalid).max(PROMPT_MAX_TOKENS, MSG.invalid)),
  temperature,
  /** saving without a queue is the choose-queue error (`queueId` required) */
  queueId: bodyId,
  maxMessages: bodyInt.pipe(z.number().min(1, MSG.invalid).max(PROMPT_MAX_MESSAGES, MSG.invalid)),
  /**
   * Issue 39: answer from the company's knowledge base only (functions/lib/knowledge/agent.ts), naming
   * the article used, and hand the ticket to people when the passages hold no answer.
   */
  useKnowledgeBase: z.boolean({ error: MSG.invalid }),
};

/** POST /prompt (management.md 7): model, maxTokens, temperature and maxMessages default per section 9. */
export const PromptBody = z.object({
  ...promptFields,
  model: promptFields.model.default(DEFAULT_PROMPT_MODEL),
  maxTokens: promptFields.maxTokens.default(PROMPT_DEFAULTS.maxTokens),
  temperature: promptFields.temperature.default(PROMPT_DEFAULTS.temperature),
  maxMessages: promptFields.maxMessages.default(PROMPT_DEFAULTS.maxMessages),
  useKnowledgeBase: promptFields.useKnowledgeBase.default(false),
  apiKey: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(500, MSG.long),
});
export type PromptBody = z.input<typeof PromptBody>;

/** PUT /prompt/{id}: the same fields; an omitted or still-masked apiKey keeps the stored key. */
export const PromptUpdateBody = z.object({
  name: promptFields.name.optional(),
  prompt: promptFields.prompt.optional(),
  model: promptFields.model.optional(),
  maxTokens: promptFields.maxTokens.optional(),
  temperature: promptFields.temperature.optional(),
  queueId: promptFields.queueId.optional(),
  maxMessages: promptFields.maxMessages.optional(),
  useKnowledgeBase: promptFields.useKnowledgeBase.optional(),
  apiKey: z.string().trim().max(500, MSG.long).optional(),
});
export type PromptUpdateBody = z.input<typeof PromptUpdateBody>;

/** A prompt as every answer shows it (management.md 3). `apiKey` is masked: `********` plus its last 4. */
export interface Prompt {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  model: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  queueId: number;
  maxMessages: number;
  /** answers from the knowledge base only (absent on prompts saved before it: false) */
  useKnowledgeBase: boolean;
  queue: { id: number; name: string; color: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /prompt */
export interface PromptsResponse {
  prompts: Prompt[];
}

/** DELETE /prompt/{id}: the message the page shows as an info toast. */
export interface PromptDeleted {
  message: string;
}
