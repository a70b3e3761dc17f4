import { z } from 'zod';
import { MSG, bodyId, bodyInt, cursorQuery } from './common';

/**
 * The company's knowledge base (issue 39): articles written in the app and documents uploaded, split
 * into passages that the AI agent and the attendants' copilot retrieve. Admin only; never shared
 * between companies.
 */
export const KNOWLEDGE_LANGUAGES = ['pt', 'en', 'es'] as const;
export type KnowledgeLanguage = (typeof KNOWLEDGE_LANGUAGES)[number];

/** What a document upload may be (the text is extracted on the server). */
export const KNOWLEDGE_DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'txt',
  'text/markdown': 'md',
} as const;
export const KNOWLEDGE_MAX_BODY = 100_000;
/** the largest document file read for its text (the upload policy allows bigger documents elsewhere) */
export const KNOWLEDGE_MAX_FILE_BYTES = 20 * 1024 * 1024;
export const KNOWLEDGE_MAX_TAGS = 20;
/** passages the agent gives the model per answer */
export const KNOWLEDGE_TOP_K = 3;

const title = z.string({ error: MSG.required }).trim().min(3, MSG.short).max(200, MSG.long);
// no defaults here: an omitted field of a PUT must stay omitted (zod fills a default even under optional())
const tags = z
  .array(z.string().trim().min(1, MSG.short).max(40, MSG.long), { error: MSG.invalid })
  .max(KNOWLEDGE_MAX_TAGS, MSG.invalid);
const language = z.enum(KNOWLEDGE_LANGUAGES, { error: MSG.invalid });
const status = z.enum(['published', 'draft'], { error: MSG.invalid });

/** An uploaded document: the key `POST /uploads` answered (under the company's prefix). */
const upload = z.object({
  key: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(1024, MSG.long),
  fileName: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(255, MSG.long),
});

/** POST /knowledge: an article (`body`) or a document (`upload`), exactly one of them. */
export const KnowledgeBody = z
  .object({
    title,
    tags: tags.default([]),
    language: language.default('pt'),
    status: status.default('published'),
    body: z.string().trim().min(1, MSG.short).max(KNOWLEDGE_MAX_BODY, MSG.long).optional(),
    upload: upload.optional(),
  })
  .refine((v) => Boolean(v.body) !== Boolean(v.upload), { message: MSG.required, path: ['body'] });
export type KnowledgeBody = z.input<typeof KnowledgeBody>;

/** PUT /knowledge/{id}: any field; a new `upload` replaces a document's text and passages. */
export const KnowledgeUpdateBody = z.object({
  title: title.optional(),
  tags: tags.optional(),
  language: language.optional(),
  status: status.optional(),
  body: z.string().trim().min(1, MSG.short).max(KNOWLEDGE_MAX_BODY, MSG.long).optional(),
  upload: upload.optional(),
});
export type KnowledgeUpdateBody = z.input<typeof KnowledgeUpdateBody>;

export interface KnowledgeArticle {
  id: number;
  companyId: number;
  kind: 'article' | 'document';
  title: string;
  /** an article's text, or the text extracted from a document */
  body: string;
  tags: string[];
  language: KnowledgeLanguage;
  /** drafts are never retrieved */
  status: 'published' | 'draft';
  /** a document's file */
  fileName?: string;
  mimetype?: string;
  size?: number;
  passages: number;
  /** the unanswered question it was drafted from */
  fromQuestionId?: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /knowledge?searchParam&cursor: `searchParam` matches titles and tags (case and accents ignored). */
export const KnowledgeQuery = cursorQuery.extend({
  searchParam: z.string().trim().max(100, MSG.long).optional(),
});

/** A row of the list (and of the `knowledge` realtime event): without `body`, a line of it as `excerpt`. */
export type KnowledgeRow = Omit<KnowledgeArticle, 'body'> & { excerpt: string };

/** GET /knowledge: newest first, paged by cursor as the other lists. */
export interface KnowledgeListResponse {
  articles: KnowledgeRow[];
  hasMore: boolean;
  cursor?: string;
}

/** A passage of an article: what retrieval ranks and the agent quotes. */
export interface KnowledgePassage {
  articleId: number;
  /** its order in the article, from 0 */
  n: number;
  title: string;
  text: string;
  language: KnowledgeLanguage;
}

export interface RetrievedPassage extends KnowledgePassage {
  score: number;
}

/** POST /knowledge/search {question}: what retrieval finds (the admin's "try it"). */
export const KnowledgeSearchBody = z.object({
  question: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(2000, MSG.long),
  promptId: bodyId.optional(),
});
export interface KnowledgeSearchResponse {
  passages: RetrievedPassage[];
}

/** A customer question the agent could not answer (GET /knowledge/unanswered). */
export interface UnansweredQuestion {
  id: string;
  ticketId: number;
  question: string;
  reason: 'nothing_found' | 'asked_for_person' | 'unsupported' | 'failed';
  createdAt: string;
  /** the draft article made from it */
  articleId?: number;
}

/** POST /knowledge/test-bench: replays the first customer message of the last N closed tickets. */
export const KNOWLEDGE_BENCH_MAX = 20;
export const KnowledgeBenchBody = z.object({
  promptId: bodyId,
  tickets: bodyInt.pipe(z.number().min(1, MSG.invalid).max(KNOWLEDGE_BENCH_MAX, MSG.invalid)).default(10),
});
export interface KnowledgeBenchRow {
  ticketId: number;
  question: string;
  answer: string | null;
  passages: { articleId: number; title: string; text: string }[];
  handOff: boolean;
  reason?: UnansweredQuestion['reason'];
}

/** CSAT of one side: ratings (1-3) received, the satisfied ones (2 and 3), their share and average. */
export interface AgentCsat {
  ratings: number;
  satisfied: number;
  percent: number | null;
  average: number | null;
}

/**
 * The AI agent's metrics of a period (GET /dashboard `agent`, issue 39 item 6): tickets the agent
 * resolved without a person and tickets people resolved (by close day), hand-offs to people, the
 * hand-off rate (hand-offs / (hand-offs + agent-resolved), %), CSAT of each side (by rating day),
 * and the model calls and tokens spent (by call day).
 */
export interface AgentMetrics {
  resolved: number;
  peopleResolved: number;
  handOffs: number;
  handOffRate: number | null;
  csat: { agent: AgentCsat; people: AgentCsat };
  spend: { calls: number; tokens: number };
}
