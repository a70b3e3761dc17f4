/**
 * Knowledge retrieval benchmark (issue 39 item 2): the 42 articles and the questions of
 * knowledge-retrieval-data.ts, split into passages by the real splitter and ranked in process by the
 * real ranker (rankPassages), lexical only and lexical + embeddings. The embeddings are the local
 * fake's (fakeEmbedding: hashed words and trigrams, NOT a semantic model), so the second figure
 * measures the fusion's plumbing and what a typo-tolerant vector adds, not what a real model adds.
 * No stack needed:
 *
 *   npx tsx tests/bench/knowledge-retrieval.ts            # figures
 *   npx tsx tests/bench/knowledge-retrieval.ts --misses   # and each question answered wrong
 *
 * Prints, per mode: the share of answerable questions whose right passage (the named article's
 * passage holding the named words) is in the top 3, the share of unanswerable ones answered [], and
 * the ranking time per question (p50/p99; with embeddings it includes embedding the question).
 */
import { performance } from 'node:perf_hooks';
import { fakeEmbedding } from '../../infra/local/ai-fakes';
import { splitIntoPassages } from '../../functions/lib/knowledge/passages';
import { passageInput } from '../../functions/lib/knowledge/embeddings';
import { type RankOptions, rankPassages } from '../../functions/lib/knowledge/retrieve';
import { KNOWLEDGE_TOP_K, type KnowledgePassage } from '../../shared/schemas/knowledge';
import { ARTICLES, QUESTIONS } from './knowledge-retrieval-data';

const showMisses = process.argv.includes('--misses');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

const passages: KnowledgePassage[] = ARTICLES.flatMap((a) =>
  splitIntoPassages(a.body).map((text, n) => ({ articleId: a.id, n, title: a.title, text, language: a.language })),
);
const unclear = QUESTIONS.filter(
  (q) => q.article && passages.filter((p) => p.articleId === q.article && p.text.includes(q.passage!)).length !== 1,
);
if (unclear.length) throw new Error(`not one passage holds: ${unclear.map((q) => q.passage).join(', ')}`);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function run(mode: string, vectorsFor?: (question: string) => RankOptions['vectors']) {
  const times: number[] = [];
  let found = 0;
  let answerable = 0;
  let empty = 0;
  let unanswerable = 0;
  const byLanguage = new Map<string, { found: number; of: number }>();
  const misses: string[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const q of QUESTIONS) {
      const started = performance.now();
      const top = rankPassages(passages, q.question, KNOWLEDGE_TOP_K, { vectors: vectorsFor?.(q.question) });
      times.push(performance.now() - started);
      if (round) continue;
      const got = top.map((p) => `${p.articleId}/${p.n}`).join(' ') || '[]';
      if (!q.article) {
        unanswerable++;
        if (!top.length) empty++;
        else misses.push(`  [${q.language}] "${q.question}" expected [] got ${got}`);
        continue;
      }
      answerable++;
      const lang = byLanguage.get(q.language) ?? { found: 0, of: 0 };
      lang.of++;
      if (top.some((p) => p.articleId === q.article && p.text.includes(q.passage!))) {
        found++;
        lang.found++;
      } else misses.push(`  [${q.language}] "${q.question}" expected ${q.article} ("${q.passage}") got ${got}`);
      byLanguage.set(q.language, lang);
    }
  times.sort((a, b) => a - b);
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
  console.log(`\n${mode}`);
  console.log(`  right passage in the top ${KNOWLEDGE_TOP_K}: ${found}/${answerable} = ${pct(found, answerable)}`);
  console.log(`    ${[...byLanguage].map(([l, v]) => `${l} ${v.found}/${v.of} (${pct(v.found, v.of)})`).join(', ')}`);
  console.log(`  unanswerable answered []: ${empty}/${unanswerable} = ${pct(empty, unanswerable)}`);
  console.log(
    `  time per question: p50 ${quantile(times, 0.5).toFixed(3)} ms, p99 ${quantile(times, 0.99).toFixed(3)} ms (${times.length} rankings)`,
  );
  if (showMisses && misses.length) console.log(misses.join('\n'));
}

console.log(
  `${ARTICLES.length} articles (${['pt', 'en', 'es'].map((l) => `${ARTICLES.filter((a) => a.language === l).length} ${l}`).join(', ')}), ${passages.length} passages; ${QUESTIONS.length} questions (${QUESTIONS.filter((q) => !q.article).length} unanswerable), ${ROUNDS} rounds`,
);
const indexStart = performance.now();
rankPassages(passages, 'warm up', KNOWLEDGE_TOP_K);
console.log(`index built (first question of a LIVE version): ${(performance.now() - indexStart).toFixed(1)} ms`);

run('lexical only');

const embedStart = performance.now();
const passageVectors = passages.map((p) => fakeEmbedding(passageInput(p)));
console.log(`\npassages embedded once (fake, in process): ${(performance.now() - embedStart).toFixed(1)} ms`);
run('lexical + embeddings (fake)', (question) => ({ question: fakeEmbedding(question), passages: passageVectors }));
