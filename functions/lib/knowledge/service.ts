import type { z } from 'zod';
import {
  KNOWLEDGE_TOP_K,
  type KnowledgeArticle,
  type KnowledgeBody,
  type KnowledgeListResponse,
  type KnowledgeRow,
  type KnowledgeSearchResponse,
  type KnowledgeUpdateBody,
} from '#shared/schemas/knowledge';
import { PAGE_SIZE } from '#shared/constants';
import { auditBy, changesOf, type AuditActor } from '../audit/actor';
import { deleteTx, putIfTx, putTx, transact, type TransactItem } from '../db';
import { AppError } from '../errors';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { log } from '../log';
import { promptForRun } from '../prompts/service';
import { publish } from '../realtime';
import { fold } from '../search/normalize';
import { deleteObject } from '../storage';
import { extractUpload, type ExtractedDocument } from './extract';
import { articleKeys } from './keys';
import { MAX_PASSAGES, splitIntoPassages } from './passages';
import {
  articleItem,
  deletePassages,
  ensureLiveItem,
  getStoredArticle,
  moveLiveTx,
  putPassages,
  queryArticles,
  type StoredArticle,
} from './repo';
import { retrieve } from './retrieve';

/**
 * The company's knowledge base (issue 39): articles written in the app and documents uploaded.
 *
 * A save that changes what is retrieved (a published article's text, title or language, or its
 * publication) goes in three steps: the new generation of passages is written, then the article and
 * the LIVE item's entry for it move in one transaction, then the old generation is deleted. A reader
 * sees the old passages or the new ones; a save that fails leaves the old ones live. A document's
 * text is extracted before anything is written, so a bad file changes nothing.
 */
type CreateInput = z.output<typeof KnowledgeBody> & { fromQuestionId?: string };
type UpdateInput = z.output<typeof KnowledgeUpdateBody>;

const EXCERPT_CHARS = 200;

const excerptOf = (body: string) => {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS - 1)}…` : line;
};
const searchTextOf = (title: string, tags: string[]) => fold([title, ...tags].join(' \u0001 '));

function present({ excerpt: _e, searchText: _s, gen: _g, fileKey: _k, ...article }: StoredArticle): KnowledgeArticle {
  return article;
}
function rowOf({ body: _b, searchText: _s, gen: _g, fileKey: _k, ...row }: StoredArticle): KnowledgeRow {
  return row;
}

/** The passages a published article's text makes; ERR_KNOWLEDGE_TOO_LARGE past MAX_PASSAGES. */
function passagesOf(body: string): string[] {
  const texts = splitIntoPassages(body);
  if (texts.length > MAX_PASSAGES) throw new AppError('ERR_KNOWLEDGE_TOO_LARGE', 413, { maxPassages: MAX_PASSAGES });
  return texts;
}

async function requireArticle(companyId: number, id: number): Promise<StoredArticle> {
  const stored = await getStoredArticle(companyId, id);
  if (!stored) throw new AppError('ERR_NOT_FOUND');
  return stored;
}

/**
 * Writes `after` (and, when `texts` is given, its new generation of passages made live) in one
 * transaction with `guard`, the condition on the article as it was read. The new passages are
 * written first and deleted again when the transaction fails, so nothing half-saved stays behind.
 */
async function commit(
  after: StoredArticle,
  guard: TransactItem,
  liveChange: { texts?: string[]; unpublish?: boolean },
) {
  const { companyId } = after;
  const steps: TransactItem[] = [guard];
  if (liveChange.texts) {
    await putPassages(companyId, after, after.gen!, liveChange.texts);
    await ensureLiveItem(companyId);
    steps.push(moveLiveTx(companyId, after.id, after.gen));
  } else if (liveChange.unpublish) steps.push(moveLiveTx(companyId, after.id, null));
  try {
    await transact(steps);
  } catch (err) {
    if (liveChange.texts) await deletePassages(companyId, after.id, after.gen!);
    throw err;
  }
}

/** Old passages and a replaced file go after the save; a failure here only leaves unread leftovers. */
async function cleanUp(companyId: number, articleId: number, oldGen: number | null, oldFile: string | undefined) {
  try {
    if (oldGen !== null) await deletePassages(companyId, articleId, oldGen);
    if (oldFile) await deleteObject(oldFile);
  } catch (err) {
    log.warn('knowledge leftovers not deleted', { companyId, articleId, error: (err as Error).message });
  }
}

async function announce(companyId: number, action: 'create' | 'update' | 'delete', article: StoredArticle) {
  await publish(
    companyId,
    'knowledge',
    action === 'delete'
      ? { action, articleId: article.id }
      : { action, articleId: article.id, article: rowOf(article) },
    { kind: 'admins' },
  );
}

const fileFacts = (file: ExtractedDocument, upload: { key: string; fileName: string }) => ({
  fileName: upload.fileName,
  mimetype: file.mimetype,
  size: file.size,
  fileKey: upload.key,
});

export async function listArticles(
  companyId: number,
  opts: { searchParam?: string; cursor?: string; limit?: number },
): Promise<KnowledgeListResponse> {
  const term = opts.searchParam ? fold(opts.searchParam.trim()) : '';
  const paged = await queryArticles(companyId, { term, cursor: opts.cursor, limit: opts.limit ?? PAGE_SIZE });
  return { articles: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

export async function getArticle(companyId: number, id: number): Promise<KnowledgeArticle> {
  return present(await requireArticle(companyId, id));
}

/** POST /knowledge: an article (`body`) or a document (`upload`, its text extracted first). */
export async function createArticle(companyId: number, input: CreateInput, actor?: AuditActor) {
  const file = input.upload ? await extractUpload(companyId, input.upload) : undefined;
  const body = file ? file.text : input.body!;
  const published = input.status === 'published';
  const texts = published ? passagesOf(body) : undefined;
  const now = nowIso();
  const article: StoredArticle = {
    id: await nextId(companyScope(companyId), 'knowledge'),
    companyId,
    kind: file ? 'document' : 'article',
    title: input.title,
    body,
    tags: input.tags,
    language: input.language,
    status: input.status,
    ...(file && input.upload ? fileFacts(file, input.upload) : {}),
    passages: texts?.length ?? 0,
    ...(input.fromQuestionId ? { fromQuestionId: input.fromQuestionId } : {}),
    createdAt: now,
    updatedAt: now,
    excerpt: excerptOf(body),
    searchText: searchTextOf(input.title, input.tags),
    gen: texts ? await nextId(companyScope(companyId), 'knowledgeGen') : null,
  };
  await commit(article, putTx(articleItem(article), true), { texts });
  await announce(companyId, 'create', article);
  await auditBy(actor, {
    action: 'knowledge.created',
    target: { type: 'knowledge', id: article.id, name: article.title },
    changes: {
      kind: article.kind,
      status: article.status,
      ...(article.fileName ? { fileName: article.fileName } : {}),
    },
  });
  return present(article);
}

/**
 * PUT /knowledge/{id}: any field. `body` is an article's, `upload` a document's (its new file replaces
 * the text and the passages). Passages are rewritten when what they carry changes (text, title,
 * language) or the article is published; a draft has none live. ERR_CONFLICT when the article changed
 * since it was read.
 */
export async function updateArticle(companyId: number, id: number, input: UpdateInput, actor?: AuditActor) {
  const before = await requireArticle(companyId, id);
  if (input.body !== undefined && before.kind === 'document')
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['body'], message: 'invalid' }]);
  if (input.upload && before.kind === 'article')
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['upload'], message: 'invalid' }]);
  const file = input.upload ? await extractUpload(companyId, input.upload) : undefined;

  const body = file?.text ?? input.body ?? before.body;
  const title = input.title ?? before.title;
  const tags = input.tags ?? before.tags;
  const language = input.language ?? before.language;
  const status = input.status ?? before.status;
  const carriedChanged = body !== before.body || title !== before.title || language !== before.language;
  const republish = status === 'published' && (before.gen === null || carriedChanged || Boolean(file));
  const texts = republish ? passagesOf(body) : undefined;
  const gen = status === 'draft' ? null : texts ? await nextId(companyScope(companyId), 'knowledgeGen') : before.gen;

  const after: StoredArticle = {
    ...before,
    title,
    body,
    tags,
    language,
    status,
    ...(file && input.upload ? fileFacts(file, input.upload) : {}),
    passages: status === 'draft' ? 0 : (texts?.length ?? before.passages),
    updatedAt: nowIso(),
    excerpt: excerptOf(body),
    searchText: searchTextOf(title, tags),
    gen,
  };
  await commit(after, putIfTx(articleItem(after), 'updatedAt', before.updatedAt), {
    texts,
    unpublish: gen === null && before.gen !== null,
  });
  const replacedFile = file && before.fileKey !== after.fileKey ? before.fileKey : undefined;
  await cleanUp(companyId, id, gen !== before.gen ? before.gen : null, replacedFile);
  await announce(companyId, 'update', after);
  await auditBy(actor, {
    action: 'knowledge.updated',
    target: { type: 'knowledge', id, name: after.title },
    changes: {
      ...changesOf(before, after, ['title', 'tags', 'language', 'status', 'fileName']),
      ...(body !== before.body ? { body: 'changed' } : {}),
    },
  });
  return present(after);
}

/** DELETE /knowledge/{id}: out of LIVE and gone in one transaction, then its passages and file. */
export async function deleteArticle(companyId: number, id: number, actor?: AuditActor) {
  const before = await requireArticle(companyId, id);
  const steps: TransactItem[] = [
    deleteTx(articleKeys(companyId, id), '#u = :u', {
      names: { '#u': 'updatedAt' },
      values: { ':u': before.updatedAt },
    }),
  ];
  if (before.gen !== null) steps.push(moveLiveTx(companyId, id, null));
  await transact(steps);
  try {
    // every generation: leftovers of a save cut short go too
    await deletePassages(companyId, id);
    if (before.fileKey) await deleteObject(before.fileKey);
  } catch (err) {
    log.warn('knowledge leftovers not deleted', { companyId, articleId: id, error: (err as Error).message });
  }
  await announce(companyId, 'delete', before);
  await auditBy(actor, { action: 'knowledge.deleted', target: { type: 'knowledge', id, name: before.title } });
  return { message: 'Knowledge article deleted' };
}

/**
 * POST /knowledge/search: what retrieval answers for `question` (the admin's "try it"), with the
 * prompt's provider key when a prompt is named (embeddings, where the provider offers them).
 */
export async function searchKnowledge(
  companyId: number,
  input: { question: string; promptId?: number },
): Promise<KnowledgeSearchResponse> {
  let apiKey: string | undefined;
  if (input.promptId !== undefined) {
    const prompt = await promptForRun(companyId, input.promptId);
    if (!prompt) throw new AppError('ERR_VALIDATION', 400, [{ path: ['promptId'], message: 'invalid' }]);
    apiKey = prompt.apiKey;
  }
  return { passages: await retrieve(companyId, input.question, { limit: KNOWLEDGE_TOP_K, apiKey }) };
}
