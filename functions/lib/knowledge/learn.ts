import type { KnowledgeArticle, KnowledgeBenchRow, UnansweredQuestion } from '#shared/schemas/knowledge';
import { KNOWLEDGE_MAX_BODY } from '#shared/schemas/knowledge';
import type { Message } from '#shared/schemas/messages';
import { decodeCursor, encodeCursor } from '../cursor';
import type { AuditActor } from '../audit/actor';
import { deleteItem, getItem, query, stripKeys, updateItem, type Item } from '../db';
import { AppError } from '../errors';
import { conversationPk } from '../messages/repo';
import { publish } from '../realtime';
import { promptForRun } from '../prompts/service';
import { getStoredTicket, ticketIndex, toStored, type StoredTicket } from '../tickets/repo';
import { answerFromKnowledge } from './agent';
import { unansweredId, unansweredKeysOf, unansweredPk } from './keys';
import { createArticle, getArticle } from './service';

/**
 * Learning before and after going live (issue 39 item 4):
 * - the questions the agent handed off (`C#<cid>#KBQ`, keys.ts), newest first, for admins to dismiss
 *   or turn into a draft article in one click: titled from the question, its body what the attendant
 *   answered on that ticket after the hand-off (the knowledge the base lacked), else the question;
 * - the test bench: the first customer message of the company's last closed tickets replayed through
 *   the agent, which sends and stores nothing (its model calls are metered as `bench`).
 */
const PAGE = 20;
const listScope = (companyId: number) => ({ pk: unansweredPk(companyId), sk: { beginsWith: 'Q#' } });

const toQuestion = (item: Item): UnansweredQuestion => {
  const q = stripKeys(item) as Item;
  return {
    // the id names the item's key, whatever the writer stored
    id: unansweredId(String(q.createdAt), Number(q.ticketId)),
    ticketId: Number(q.ticketId),
    question: String(q.question ?? ''),
    reason: q.reason as UnansweredQuestion['reason'],
    createdAt: String(q.createdAt),
    ...(typeof q.articleId === 'number' ? { articleId: q.articleId } : {}),
  };
};

export interface UnansweredPage {
  questions: UnansweredQuestion[];
  hasMore: boolean;
  cursor?: string;
}

/** GET /knowledge/unanswered: one Query of the company's partition, backwards (newest first). */
export async function listUnanswered(
  companyId: number,
  opts: { cursor?: string; limit?: number } = {},
): Promise<UnansweredPage> {
  const scope = listScope(companyId);
  const { items, lastKey } = await query({
    ...scope,
    forward: false,
    limit: opts.limit ?? PAGE,
    startKey: await decodeCursor(companyId, opts.cursor, scope),
  });
  const cursor = await encodeCursor(companyId, lastKey, scope);
  return { questions: items.map(toQuestion), hasMore: Boolean(lastKey), ...(cursor ? { cursor } : {}) };
}

function keysOf(companyId: number, id: string) {
  const keys = unansweredKeysOf(companyId, id);
  if (!keys) throw new AppError('ERR_KNOWLEDGE_QUESTION_NOT_FOUND');
  return keys;
}

async function requireQuestion(companyId: number, id: string) {
  const item = await getItem(keysOf(companyId, id), { consistent: true });
  if (!item) throw new AppError('ERR_KNOWLEDGE_QUESTION_NOT_FOUND');
  return toQuestion(item);
}

const tellAdmins = (companyId: number, action: 'update' | 'delete', question: UnansweredQuestion) =>
  publish(companyId, 'knowledgeUnanswered', { action, question, questionId: question.id }, { kind: 'admins' });

/** DELETE /knowledge/unanswered/{id}: the admin dismisses it (a draft made from it stays). */
export async function dismissUnanswered(companyId: number, id: string) {
  const old = await deleteItem(keysOf(companyId, id), { returnOld: true });
  if (!old) throw new AppError('ERR_KNOWLEDGE_QUESTION_NOT_FOUND');
  await tellAdmins(companyId, 'delete', toQuestion(old));
  return { message: 'Question dismissed' };
}

/** The most of the attendant's replies a draft takes, and of the conversation read to find them. */
const DRAFT_REPLIES = 10;
const DRAFT_READS = 5;
const READ_SIZE = 100;
const TITLE_MAX = 200;

/** The second a message id starts with (messages/repo.ts: 9 base36 chars of the whole second, in ms). */
const idSecond = (iso: string) => (Math.floor(Date.parse(iso) / 1000) * 1000).toString(36).padStart(9, '0');

/**
 * What people answered on the ticket after the hand-off at `after`: the messages sent from our side
 * that no bot sent, oldest first, at most DRAFT_REPLIES; read from the conversation's partition from
 * that second on (bounded reads).
 */
async function repliesAfter(companyId: number, ticket: StoredTicket, after: string): Promise<string[]> {
  const replies: string[] = [];
  let startKey: Item | undefined;
  for (let read = 0; read < DRAFT_READS && replies.length < DRAFT_REPLIES; read++) {
    const page = await query<Message>({
      pk: conversationPk(companyId, ticket.contactId, ticket.whatsappId),
      sk: { between: [`M#${idSecond(after)}`, 'M#~'] },
      limit: READ_SIZE,
      startKey,
      filter: '#ticket = :ticket AND #fromMe = :true AND #automatic <> :true AND #deleted <> :true',
      filterNames: { '#ticket': 'ticketId', '#fromMe': 'fromMe', '#automatic': 'automatic', '#deleted': 'isDeleted' },
      filterValues: { ':ticket': ticket.id, ':true': true },
    });
    for (const m of page.items) {
      if (m.createdAt < after || !m.body?.trim() || m.mediaType !== 'chat') continue;
      replies.push(m.body.trim());
    }
    startKey = page.lastKey;
    if (!startKey) break;
  }
  return replies.slice(0, DRAFT_REPLIES);
}

/** A title from the question: its first line, trimmed to a title's length (at least 3 characters). */
function titleOf(question: string) {
  const line =
    question
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? question.trim();
  const title = line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1).trimEnd()}…` : line;
  return title.length >= 3 ? title : `${title} ?`.padEnd(3, '?');
}

/** A claim on a question being drafted older than this is a draft cut short: another click may take it. */
const DRAFT_CLAIM_MS = 60_000;

/** The draft already made from a question, when it still exists (an admin may have deleted it). */
async function existingDraft(companyId: number, articleId: number | undefined) {
  if (!articleId) return undefined;
  return getArticle(companyId, articleId).catch((err) => {
    if (err instanceof AppError && err.code === 'ERR_NOT_FOUND') return undefined;
    throw err;
  });
}

/**
 * POST /knowledge/unanswered/{id}/draft: a draft article from the question (never retrieved until an
 * admin publishes it), written by the knowledge service. A question already drafted answers its
 * article again; two clicks at once make one draft (the question is claimed first: ERR_CONFLICT for
 * the other while the first one writes).
 */
export async function draftFromUnanswered(
  companyId: number,
  id: string,
  actor?: AuditActor,
): Promise<KnowledgeArticle> {
  const question = await requireQuestion(companyId, id);
  const existing = await existingDraft(companyId, question.articleId);
  if (existing) return existing;
  const now = Date.now();
  const claimed = await updateItem(keysOf(companyId, id), {
    set: { draftingAt: now },
    condition:
      'attribute_exists(pk) AND (attribute_not_exists(articleId) OR articleId = :stale) AND (attribute_not_exists(draftingAt) OR draftingAt < :expired)',
    conditionValues: { ':stale': question.articleId ?? -1, ':expired': now - DRAFT_CLAIM_MS },
  });
  if (!claimed) {
    const current = await requireQuestion(companyId, id);
    const made = await existingDraft(companyId, current.articleId);
    if (made) return made;
    throw new AppError('ERR_CONFLICT');
  }
  try {
    const ticket = await getStoredTicket(companyId, question.ticketId);
    const replies = ticket ? await repliesAfter(companyId, ticket, question.createdAt) : [];
    const body = (replies.length ? replies.join('\n\n') : question.question).slice(0, KNOWLEDGE_MAX_BODY);
    const article = await createArticle(
      companyId,
      {
        title: titleOf(question.question),
        body,
        tags: [],
        language: 'pt',
        status: 'draft',
        fromQuestionId: question.id,
      },
      actor,
    );
    await updateItem(keysOf(companyId, id), { set: { articleId: article.id }, remove: ['draftingAt'] });
    await tellAdmins(companyId, 'update', { ...question, articleId: article.id });
    return article;
  } catch (err) {
    await updateItem(keysOf(companyId, id), { remove: ['draftingAt'], condition: 'attribute_exists(pk)' });
    throw err;
  }
}

/** How far before a ticket's creation its first message may be dated (WhatsApp's clock, not ours). */
const FIRST_MESSAGE_SLACK_MS = 5 * 60_000;
/** bench rows answered at once (each one model call at most) */
const BENCH_CONCURRENCY = 4;

/** What a customer's message says in words: an audio's transcript, else its text (a caption included). */
const wordsOf = (m: Message) => (m.transcript || (m.mediaType === 'audio' ? '' : m.body) || '').trim();

/** The ticket's first customer message with words, read forward from its creation (bounded reads). */
async function firstCustomerMessage(companyId: number, ticket: StoredTicket): Promise<string | undefined> {
  const from = new Date(Date.parse(ticket.createdAt) - FIRST_MESSAGE_SLACK_MS).toISOString();
  let startKey: Item | undefined;
  for (let read = 0; read < DRAFT_READS; read++) {
    const page = await query<Message>({
      pk: conversationPk(companyId, ticket.contactId, ticket.whatsappId),
      sk: { between: [`M#${idSecond(from)}`, 'M#~'] },
      limit: READ_SIZE,
      startKey,
      filter: '#ticket = :ticket AND #fromMe = :false AND #deleted <> :true',
      filterNames: { '#ticket': 'ticketId', '#fromMe': 'fromMe', '#deleted': 'isDeleted' },
      filterValues: { ':ticket': ticket.id, ':false': false, ':true': true },
    });
    const found = page.items.map(wordsOf).find(Boolean);
    if (found) return found;
    startKey = page.lastKey;
    if (!startKey) return undefined;
  }
  return undefined;
}

/** The company's last `count` closed tickets, last closed first: one Query of its closed list (gsi1). */
async function lastClosedTickets(companyId: number, count: number): Promise<StoredTicket[]> {
  const { items } = await query({
    index: 'gsi1',
    pk: ticketIndex.status(companyId, 'closed'),
    forward: false,
    limit: count,
  });
  return items.map(toStored).filter((t) => !t.isGroup);
}

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

/**
 * POST /knowledge/test-bench: what the agent would answer to the first customer message of each of
 * the company's last closed tickets. The agent sends and stores nothing; its model calls are counted
 * as `bench`. A row's passages are the ones of the articles its answer named, or, when it would hand
 * off, the ones it found (none when nothing was found).
 */
export async function runBench(companyId: number, body: { promptId: number; tickets: number }) {
  const prompt = await promptForRun(companyId, body.promptId);
  if (!prompt) throw new AppError('ERR_NOT_FOUND');
  const tickets = await lastClosedTickets(companyId, body.tickets);
  const asked = await inBatches(tickets, BENCH_CONCURRENCY, async (t) => ({
    ticket: t,
    question: await firstCustomerMessage(companyId, t),
  }));
  const rows = await inBatches(
    asked.filter((a): a is { ticket: StoredTicket; question: string } => Boolean(a.question)),
    BENCH_CONCURRENCY,
    async ({ ticket, question }): Promise<KnowledgeBenchRow> => {
      const out = await answerFromKnowledge({
        companyId,
        prompt,
        history: [],
        question,
        customerName: ticket.contact?.name,
        purpose: 'bench',
      });
      const used = out.handOff ? out.passages : out.passages.filter((p) => out.articleIds.includes(p.articleId));
      return {
        ticketId: ticket.id,
        question,
        answer: out.answer,
        passages: used.map((p) => ({ articleId: p.articleId, title: p.title, text: p.text })),
        handOff: out.handOff,
        ...(out.reason ? { reason: out.reason } : {}),
      };
    },
  );
  return rows;
}
