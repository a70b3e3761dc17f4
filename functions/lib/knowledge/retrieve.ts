import { KNOWLEDGE_TOP_K, type KnowledgePassage, type RetrievedPassage } from '#shared/schemas/knowledge';
import { words } from '../search/normalize';
import { loadPassages } from './repo';

export interface RetrieveOptions {
  /** how many passages at most (KNOWLEDGE_TOP_K) */
  limit?: number;
  /** the prompt's provider key, for embeddings when the provider offers them */
  apiKey?: string;
}

const K1 = 1.2;
const B = 0.75;

/**
 * Lexical ranking (BM25) over the passages' folded words (the search index's analyzer: case and
 * accents ignored), the title counted with the text. Only passages sharing a word with the question
 * score above 0; those are answered, best first.
 */
export function rankPassages(
  passages: KnowledgePassage[],
  question: string,
  limit = KNOWLEDGE_TOP_K,
): RetrievedPassage[] {
  const terms = [...new Set(words(question))];
  if (!terms.length || !passages.length) return [];
  const docs = passages.map((p) => words(`${p.title} ${p.text}`));
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) if (terms.includes(w)) df.set(w, (df.get(w) ?? 0) + 1);
  const scored = passages.map((p, i) => {
    const d = docs[i]!;
    let score = 0;
    for (const term of terms) {
      const n = df.get(term);
      if (!n) continue;
      const tf = d.filter((w) => w === term).length;
      if (!tf) continue;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avg));
    }
    return { ...p, score };
  });
  return scored
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** The company's passages most relevant to `question`, best first; another company's are never read. */
export async function retrieve(
  companyId: number,
  question: string,
  opts: RetrieveOptions = {},
): Promise<RetrievedPassage[]> {
  return rankPassages(await loadPassages(companyId), question, opts.limit ?? KNOWLEDGE_TOP_K);
}
