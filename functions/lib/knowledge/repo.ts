import type { KnowledgeLanguage, KnowledgePassage } from '#shared/schemas/knowledge';
import { getItem, queryAll } from '../db';
import { remember } from '../lru';
import { PASSAGE_PREFIX, knowledgePk, liveKeys, type LiveItem } from './keys';

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
