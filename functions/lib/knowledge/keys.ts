import { pad } from '../keys';

/**
 * Where the knowledge base lives (docs/data-model.md):
 * - an article: pk `C#<cid>`, sk `KB#<pad(id)>` (title, body, tags, language, status, file facts);
 * - its passages: pk `C#<cid>#KB`, sk `P#<pad(articleId)>#<pad(gen)>#<pad(n)>`, one generation per
 *   save of its text;
 * - the live generations: pk `C#<cid>#KB`, sk `LIVE`, `{ v, live: { [articleId]: gen } }`. A save writes
 *   the new generation's passages first, then moves `live` (and `v`) in one write, then deletes the old
 *   generation: a reader sees the old passages or the new ones, never half of each, and a failed save
 *   leaves the old ones live.
 */
export const articleKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `KB#${pad(id)}` });
export const ARTICLE_PREFIX = 'KB#';
export const knowledgePk = (companyId: number) => `C#${companyId}#KB`;
export const passageKeys = (companyId: number, articleId: number, gen: number, n: number) => ({
  pk: knowledgePk(companyId),
  sk: `P#${pad(articleId)}#${pad(gen, 6)}#${pad(n, 5)}`,
});
export const PASSAGE_PREFIX = 'P#';
/** the sort-key prefix of an article's passages: all its generations, or one */
export const articlePassagesPrefix = (articleId: number, gen?: number) =>
  `${PASSAGE_PREFIX}${pad(articleId)}#${gen === undefined ? '' : `${pad(gen, 6)}#`}`;
export const liveKeys = (companyId: number) => ({ pk: knowledgePk(companyId), sk: 'LIVE' });

export interface LiveItem {
  /** bumped by every change of what is live: instances keep the passages of a version */
  v: number;
  /** article id -> its live generation (published articles only) */
  live: Record<string, number>;
}

/**
 * A question the agent could not answer: pk `C#<cid>#KBQ`, sk `Q#<createdAt>#<ticketId>` (newest last;
 * the list reads the partition backwards). Written by the agent, listed, drafted and dismissed by admins.
 */
export const unansweredPk = (companyId: number) => `C#${companyId}#KBQ`;
export const unansweredKeys = (companyId: number, createdAt: string, ticketId: number) => ({
  pk: unansweredPk(companyId),
  sk: `Q#${createdAt}#${pad(ticketId)}`,
});

/**
 * An unanswered question's id (URL-safe) and back: `<epoch ms of createdAt>-<ticketId>`, so a route
 * given the id finds the item with one GetItem.
 */
export const unansweredId = (createdAt: string, ticketId: number) => `${Date.parse(createdAt)}-${ticketId}`;
export function unansweredKeysOf(companyId: number, id: string) {
  const match = /^(\d{1,15})-(\d{1,10})$/.exec(id);
  if (!match) return undefined;
  const at = new Date(Number(match[1]));
  if (Number.isNaN(at.getTime())) return undefined;
  return unansweredKeys(companyId, at.toISOString(), Number(match[2]));
}
