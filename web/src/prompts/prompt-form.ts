import {
  DEFAULT_PROMPT_MODEL,
  PROMPT_DEFAULTS,
  PromptBody,
  PromptUpdateBody,
  isMaskedSecret,
  type Prompt,
} from '#shared/schemas/prompts';
import { fieldErrors } from '../lib/zod-errors';

/** The prompt dialog's fields as typed (numbers may be empty while editing). */
export interface PromptForm {
  name: string;
  apiKey: string;
  prompt: string;
  queueId: number | '';
  model: string;
  temperature: number | '';
  maxTokens: number | '';
  maxMessages: number | '';
  useKnowledgeBase: boolean;
}

/** A new prompt starts with the section 9 defaults. */
export const emptyPrompt = (): PromptForm => ({
  name: '',
  apiKey: '',
  prompt: '',
  queueId: '',
  model: DEFAULT_PROMPT_MODEL,
  temperature: PROMPT_DEFAULTS.temperature,
  maxTokens: PROMPT_DEFAULTS.maxTokens,
  maxMessages: PROMPT_DEFAULTS.maxMessages,
  useKnowledgeBase: false,
});

/** An existing prompt in the dialog: the key stays masked and is kept unless a new one is typed. */
export const promptToForm = (p: Prompt): PromptForm => ({
  name: p.name,
  apiKey: p.apiKey,
  prompt: p.prompt,
  queueId: p.queueId ?? '',
  model: p.model,
  temperature: p.temperature,
  maxTokens: p.maxTokens,
  maxMessages: p.maxMessages,
  useKnowledgeBase: Boolean(p.useKnowledgeBase),
});

export type PromptCheck =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; errors: Record<string, string>; chooseQueue: boolean };

/**
 * Section 5 on the dialog: the shared schema's rules (name 5-100, prompt at least 50, numbers,
 * apiKey required on create); a missing queue is also the choose-queue error. On edit a masked
 * apiKey is left out so the stored key stays.
 */
export function checkPrompt(form: PromptForm, editing: boolean): PromptCheck {
  const raw = {
    ...form,
    queueId: form.queueId === '' ? undefined : form.queueId,
    temperature: form.temperature === '' ? undefined : form.temperature,
    maxTokens: form.maxTokens === '' ? undefined : form.maxTokens,
    maxMessages: form.maxMessages === '' ? undefined : form.maxMessages,
  };
  // numbers are required in the dialog (section 5), even where the API would default them
  const missing: Record<string, string> = {};
  for (const key of ['temperature', 'maxTokens', 'maxMessages', 'queueId'] as const)
    if (raw[key] === undefined) missing[key] = 'required';
  const keepKey = editing && (!form.apiKey.trim() || isMaskedSecret(form.apiKey));
  const body = keepKey ? { ...raw, apiKey: undefined } : raw;
  const parsed = editing
    ? PromptUpdateBody.required({
        name: true,
        prompt: true,
        model: true,
        maxTokens: true,
        temperature: true,
        queueId: true,
        maxMessages: true,
      }).safeParse(body)
    : PromptBody.safeParse(body);
  const errors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...missing };
  if (Object.keys(errors).length) return { ok: false, errors, chooseQueue: 'queueId' in errors };
  return { ok: true, body: parsed.data as Record<string, unknown> };
}
