import type { KnowledgeArticle, KnowledgeLanguage, KnowledgePassage, KnowledgeRow } from '#shared/schemas/knowledge';
import { config } from '../config';
import { decodeCursor, page } from '../cursor';
import {
  batchWrite,
  getItem,
  query,
  queryAll,
  stripKeys,
  updateItem,
  type Item,
  type Key,
  type TransactItem,
} from '../db';
import { remember } from '../lru';
import {
  ARTICLE_PREFIX,
  PASSAGE_PREFIX,
  articleKeys,
  articlePassagesPrefix,
  knowledgePk,
  liveKeys,
  passageKeys,
  type LiveItem,
} from './keys';

interface Kept {
  v: number;
  passages: KnowledgePassage[];
}
/** the live passages of a company, per version of its LIVE item (an instance reads them again only after a change) */
const kept = new Map<number, Kept>();

/**
 * The company's live passages: one GetItem of the LIVE item, plus one Query of the passages partition
 * when this instance has not read that version yet.
 */
export async function loadPassages(companyId: number): Promise<KnowledgePassage[]> {
  const live = await getItem<LiveItem>(liveKeys(companyId), { consistent: true });
  if (!live) return [];
  const known = kept.get(companyId);
  if (known && known.v === live.v) return known.passages;
  const items = await queryAll({ pk: knowledgePk(companyId), sk: { beginsWith: PASSAGE_PREFIX } });
  const passages = items
    .filter((item) => live.live[String(item.articleId)] === item.gen)
    .map(
      (item): KnowledgePassage => ({
        articleId: item.articleId as number,
        n: item.n as number,
        title: item.title as string,
        text: item.text as string,
        language: item.language as KnowledgeLanguage,
      }),
    );
  remember(kept, companyId, { v: live.v, passages }, 500);
  return passages;
}

/**
 * An article as stored (`articleKeys`): the answer's fields plus `excerpt` (the list's line of the
 * body), `searchText` (title and tags folded, for the list's search), `gen` (its live generation of
 * passages, null while a draft) and a document's `fileKey` in storage.
 */
export interface StoredArticle extends KnowledgeArticle {
  excerpt: string;
  searchText: string;
  gen: number | null;
  fileKey?: string;
}

export const articleItem = (a: StoredArticle): Item => ({ ...articleKeys(a.companyId, a.id), ...a });

export async function getStoredArticle(companyId: number, id: number): Promise<StoredArticle | undefined> {
  const item = await getItem(articleKeys(companyId, id));
  return item ? (stripKeys(item) as StoredArticle) : undefined;
}

/** What the list reads of an article: everything but the body. */
const ROW_FIELDS: (keyof KnowledgeRow)[] = [
  'id',
  'companyId',
  'kind',
  'title',
  'tags',
  'language',
  'status',
  'fileName',
  'mimetype',
  'size',
  'passages',
  'fromQuestionId',
  'createdAt',
  'updatedAt',
  'excerpt',
];

/** One page of the company's articles, newest first; `term` (folded) filters on title and tags. */
export async function queryArticles(companyId: number, opts: { term?: string; cursor?: string; limit: number }) {
  const where = { pk: `C#${companyId}`, sk: { beginsWith: ARTICLE_PREFIX } };
  const out = await query<KnowledgeRow>({
    ...where,
    forward: false,
    limit: opts.limit,
    startKey: await decodeCursor(companyId, opts.cursor, where),
    projection: ROW_FIELDS,
    ...(opts.term
      ? { filter: 'contains(#s, :q)', filterNames: { '#s': 'searchText' }, filterValues: { ':q': opts.term } }
      : {}),
  });
  return page(companyId, out.items, out.lastKey, where);
}

/** Writes one generation of an article's passages (before it is made live). */
export async function putPassages(
  companyId: number,
  article: Pick<KnowledgeArticle, 'id' | 'title' | 'language'>,
  gen: number,
  texts: string[],
) {
  await batchWrite(
    texts.map((text, n) => ({
      ...passageKeys(companyId, article.id, gen, n),
      articleId: article.id,
      gen,
      n,
      title: article.title,
      text,
      language: article.language,
    })),
  );
}

/** Deletes one generation of an article's passages, or every generation when `gen` is omitted. */
export async function deletePassages(companyId: number, articleId: number, gen?: number) {
  const keys = await queryAll<Key>({
    pk: knowledgePk(companyId),
    sk: { beginsWith: articlePassagesPrefix(articleId, gen) },
    projection: ['pk', 'sk'],
  });
  await batchWrite([], keys);
}

/** Makes sure the LIVE item and its map exist, so a transaction can set one article's entry in it. */
export async function ensureLiveItem(companyId: number) {
  await updateItem(liveKeys(companyId), { setIfAbsent: { v: 0, live: {} } });
}

/**
 * The transaction step that makes `gen` the article's live generation (null: the article has none live,
 * a draft or deleted), bumping `v` so every instance reads the passages again.
 */
export function moveLiveTx(companyId: number, articleId: number, gen: number | null): TransactItem {
  return {
    Update: {
      TableName: config().tableName,
      Key: liveKeys(companyId),
      UpdateExpression: gen === null ? 'REMOVE #live.#a ADD #v :one' : 'SET #live.#a = :gen ADD #v :one',
      ExpressionAttributeNames: { '#live': 'live', '#a': String(articleId), '#v': 'v' },
      ExpressionAttributeValues: gen === null ? { ':one': 1 } : { ':one': 1, ':gen': gen },
    },
  };
}
