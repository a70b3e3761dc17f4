import { z } from 'zod';
import { MSG } from './common';
import { KNOWLEDGE_LANGUAGES, type KnowledgeLanguage } from './knowledge';

/**
 * The attendant's copilot in a ticket (issue 39 item 5): a suggested reply from the knowledge base and
 * the conversation, a summary of the ticket, and a draft rewritten or translated. Every answer is a
 * text for the attendant to read or edit: the server never sends anything to the customer.
 *
 * Which model answers: the company's `copilotPromptId` setting (one of its prompts), else the ticket's
 * queue's prompt, else none (ERR_COPILOT_UNAVAILABLE).
 */

/** how the draft is rewritten */
export const COPILOT_STYLES = ['shorter', 'friendlier', 'formal'] as const;
export type CopilotStyle = (typeof COPILOT_STYLES)[number];

/** the languages a draft is translated between (the knowledge base's) */
export const COPILOT_LANGUAGES = KNOWLEDGE_LANGUAGES;
export type CopilotLanguage = KnowledgeLanguage;

/** the longest draft the copilot takes (a WhatsApp text is at most 65,536 characters; a draft is far shorter) */
export const COPILOT_MAX_DRAFT = 4000;

const draft = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(COPILOT_MAX_DRAFT, MSG.long);

/** POST /copilot/{ticketId}/summary: the language the attendant reads the summary in (their interface's) */
export const CopilotSummaryBody = z.object({
  language: z.enum(COPILOT_LANGUAGES, { error: MSG.invalid }).default('pt'),
});
export type CopilotSummaryBody = z.input<typeof CopilotSummaryBody>;

/** POST /copilot/{ticketId}/rewrite */
export const CopilotRewriteBody = z.object({
  text: draft,
  style: z.enum(COPILOT_STYLES, { error: MSG.invalid }),
});
export type CopilotRewriteBody = z.input<typeof CopilotRewriteBody>;

/** POST /copilot/{ticketId}/translate */
export const CopilotTranslateBody = z.object({
  text: draft,
  to: z.enum(COPILOT_LANGUAGES, { error: MSG.invalid }),
});
export type CopilotTranslateBody = z.input<typeof CopilotTranslateBody>;

/** A passage the suggestion was given, as the attendant sees it under the suggestion. */
export interface CopilotPassage {
  articleId: number;
  n: number;
  title: string;
  text: string;
}

/** POST /copilot/{ticketId}/suggest: the reply to put in the composer, and what it was drawn from. */
export interface CopilotSuggestion {
  text: string;
  /** the passages retrieved for the customer's last messages, best first (empty: none matched) */
  passages: CopilotPassage[];
  /** the articles those passages belong to, once each, in the passages' order */
  articles: { id: number; title: string }[];
}

/** POST /copilot/{ticketId}/summary */
export interface CopilotSummary {
  text: string;
}

/** POST /copilot/{ticketId}/rewrite and /translate: the new draft (the attendant's is kept in the browser for undo). */
export interface CopilotDraft {
  text: string;
}
