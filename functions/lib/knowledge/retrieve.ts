import { stemmer as stemEn } from '@orama/stemmers/english';
import { stemmer as stemPt } from '@orama/stemmers/portuguese';
import { stemmer as stemEs } from '@orama/stemmers/spanish';
import { stopwords as stopEn } from '@orama/stopwords/english';
import { stopwords as stopPt } from '@orama/stopwords/portuguese';
import { stopwords as stopEs } from '@orama/stopwords/spanish';
import { createHash } from 'node:crypto';
import { distance } from 'fastest-levenshtein';
import {
  KNOWLEDGE_TOP_K,
  type KnowledgeLanguage,
  type KnowledgePassage,
  type RetrievedPassage,
} from '#shared/schemas/knowledge';
import { log } from '../log';
import { remember } from '../lru';
import { type ChatModel, DEFAULT_EMBEDDING_MODEL, EmbeddingsNotOffered, openAiCompatible } from '../prompts/chat-model';
import { fold, words } from '../search/normalize';
import { passageVectors } from './embeddings';
import { loadPassages } from './repo';

export interface RetrieveOptions {
  /** how many passages at most (KNOWLEDGE_TOP_K) */
  limit?: number;
  /** the prompt's provider key, for embeddings when the provider offers them */
  apiKey?: string;
  /** the embedding model (DEFAULT_EMBEDDING_MODEL) */
  embeddingModel?: string;
  /** the AI port (tests); the OpenAI-compatible adapter by default */
  chatModel?: ChatModel;
}

export interface RankOptions {
  /** the question's and the passages' embeddings (same order as the passages): fused with BM25 */
  vectors?: { question: Float32Array; passages: Float32Array[] };
  /** share of the question's weight a passage must cover lexically (MIN_COVERAGE) */
  minCoverage?: number;
  /** the same, for a passage holding two of the question's words or more (MIN_COVERAGE_SEVERAL) */
  minCoverageSeveral?: number;
  /** cosine similarity that admits a passage without a lexical match (MIN_SIMILARITY) */
  minSimilarity?: number;
}

const K1 = 1.2;
const B = 0.75;
/** a title word counts as this many words of text */
const TITLE_WEIGHT = 2;
/**
 * The relevance floor: a passage is relevant when the question words it holds weigh (by IDF) at
 * least this share of all the question's words (words found in no passage weigh as the rarest), or
 * MIN_COVERAGE_SEVERAL when it holds two words or more. Below it for every passage, the knowledge
 * base does not cover the question and the answer is [].
 */
export const MIN_COVERAGE = 0.5;
export const MIN_COVERAGE_SEVERAL = 0.2;
/** what a passage in another language than the question's counts of its BM25 score */
const OTHER_LANGUAGE = 0.5;
/**
 * Cosine similarity at which an embedding alone admits a passage (a paraphrase or a translation with
 * no word in common). Set for text-embedding-3-small, where unrelated texts rarely pass 0.3 and a
 * question next to its answer sits around 0.5-0.7; a lower one lets unrelated questions in.
 */
export const MIN_SIMILARITY = 0.5;
/** reciprocal rank fusion's constant (the usual 60) */
const RRF_K = 60;
/** what a word found only with a typo weighs: 1 edit, 2 edits */
const TYPO_WEIGHT = [1, 0.8, 0.6];
/**
 * A word and a passage's word sharing their first PREFIX_MIN letters or more, and at least
 * PREFIX_SHARE of the shorter one, are taken as forms of one word where the stemmer (which works on
 * folded words) tells them apart: "configuracoes"/"configuracao", "administracion"/"administrador".
 */
const PREFIX_MIN = 6;
const PREFIX_SHARE = 0.75;
const PREFIX_WEIGHT = 0.8;
const sharedPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

const STEMMERS: Record<KnowledgeLanguage, (word: string) => string> = { pt: stemPt, en: stemEn, es: stemEs };
/** Spanish words the stop list has that name things customers ask about */
const CONTENT_ES = new Set(
  'cuenta valor trabajo trabajar trabaja dia dias día días horas tiempo final segunda segundo primer primera primero nueva nuevo nuevas nuevos usar uso mayor menos mejor peor cerca lejos modo medio general lugar parte total'.split(
    ' ',
  ),
);
/** words of how customers ask, per language, that say nothing of what they ask about */
const ASKING: Record<KnowledgeLanguage, string> = {
  pt: `quero queria gostaria preciso precisava saber posso pode podem poderia consigo consegue fazer faco faz ter
    alguem voce voces vc vcs ola oi obrigado obrigada favor bem tudo qual quais quanto quanta quantos quantas onde
    quando porque aqui agora ainda coisa pra`,
  en: `want wanted need needs know like please hi hello thanks thank get got tell way also just anyone someone
    anything something everything possible able`,
  es: `quiero quisiera queria necesito saber puedo puede pueden podria hacer hago tengo tiene tienen hola gracias
    favor alguien usted ustedes cual cuanto cuanta cuantos cuantas donde cuando`,
};
/** per language, its stop words and asking words (folded): what tells a question's language */
const FUNCTION_WORDS: Record<KnowledgeLanguage, Set<string>> = {
  pt: new Set([...stopPt, ...ASKING.pt.split(/\s+/)].map((w) => fold(w))),
  en: new Set([...stopEn, ...ASKING.en.split(/\s+/)].map((w) => fold(w))),
  es: new Set([...stopEs.filter((w) => !CONTENT_ES.has(w)), ...ASKING.es.split(/\s+/)].map((w) => fold(w))),
};
const STOP = new Set(Object.values(FUNCTION_WORDS).flatMap((set) => [...set]));

/** The question's language when its function words say so (more of one language's than of any other). */
function languageOf(asked: string[]): KnowledgeLanguage | undefined {
  const counts = (Object.keys(FUNCTION_WORDS) as KnowledgeLanguage[])
    .map((language) => ({ language, n: asked.filter((w) => FUNCTION_WORDS[language].has(w)).length }))
    .sort((a, b) => b.n - a.n);
  return counts[0]!.n > counts[1]!.n ? counts[0]!.language : undefined;
}

/** a content word: not a stop word, and longer than a letter (a digit counts: "Wi-Fi 6", "5 dias") */
const isContent = (w: string) => (w.length > 1 || /\d/.test(w)) && !STOP.has(w);
const HYPHENATED = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;
/**
 * The search analyzer's words (case and accents folded), plus each hyphenated word written whole,
 * so "Wi-Fi" and "e-mail" also match "wifi" and "email".
 */
const termsOf = (text: string) => [
  ...words(text),
  ...(fold(text).match(HYPHENATED) ?? []).map((w) => w.replaceAll('-', '')),
];
const stemOf = (language: KnowledgeLanguage, w: string) => STEMMERS[language](w);

interface Doc {
  tf: Map<string, number>;
  len: number;
  language: KnowledgeLanguage;
}
interface Index {
  docs: Doc[];
  avgLen: number;
  df: Map<string, number>;
  /** per language: the passages' folded content words and their stems (for typos) */
  vocabulary: Map<KnowledgeLanguage, Map<string, string>>;
  /** per language: the passages' stems */
  stems: Map<KnowledgeLanguage, Set<string>>;
}
/** per passages list (loadPassages answers one list per LIVE version): built once, not per question */
const indexes = new WeakMap<KnowledgePassage[], Index>();

function indexOf(passages: KnowledgePassage[]): Index {
  let index = indexes.get(passages);
  if (index) return index;
  const df = new Map<string, number>();
  const vocabulary = new Map<KnowledgeLanguage, Map<string, string>>();
  const docs = passages.map((p): Doc => {
    const vocab = vocabulary.get(p.language) ?? new Map<string, string>();
    vocabulary.set(p.language, vocab);
    const tf = new Map<string, number>();
    let len = 0;
    for (const [text, weight] of [
      [p.title, TITLE_WEIGHT],
      [p.text, 1],
    ] as const) {
      for (const w of termsOf(text)) {
        if (!isContent(w)) continue;
        let stem = vocab.get(w);
        if (stem === undefined) {
          stem = stemOf(p.language, w);
          vocab.set(w, stem);
        }
        tf.set(stem, (tf.get(stem) ?? 0) + weight);
        len += weight;
      }
    }
    for (const stem of tf.keys()) df.set(stem, (df.get(stem) ?? 0) + 1);
    return { tf, len, language: p.language };
  });
  const avgLen = docs.reduce((sum, d) => sum + d.len, 0) / Math.max(1, docs.length);
  const stems = new Map([...vocabulary].map(([language, vocab]) => [language, new Set(vocab.values())]));
  index = { docs, avgLen, df, vocabulary, stems };
  indexes.set(passages, index);
  return index;
}

/** a question word as the passages of one language may hold it: its stem, or words one typo away */
type Slot = { stem: string; weight: number }[];

/**
 * The question's content words in `language`: each its stem when the passages have it, else the
 * stems of the passages' words sharing a long prefix with it, or within 1 edit (words of 4-7
 * letters) or 2 (8 or more, same first letter), weighed down; a word found nowhere is an empty slot
 * (it still counts against coverage).
 */
function slotsOf(question: string[], language: KnowledgeLanguage, index: Index): Slot[] {
  const vocab = index.vocabulary.get(language)!;
  const known = index.stems.get(language)!;
  const stems = new Set<string>();
  const slots: Slot[] = [];
  for (const w of question) {
    const stem = stemOf(language, w);
    if (stems.has(stem)) continue;
    stems.add(stem);
    if (known.has(stem)) {
      slots.push([{ stem, weight: 1 }]);
      continue;
    }
    const edits = w.length >= 8 ? 2 : w.length >= 4 ? 1 : 0;
    const near = new Map<string, number>();
    const closer = (vStem: string, weight: number) => near.set(vStem, Math.max(near.get(vStem) ?? 0, weight));
    for (const [v, vStem] of vocab) {
      if (w.length >= PREFIX_MIN && v.length >= PREFIX_MIN) {
        const shared = sharedPrefix(w, v);
        if (shared >= PREFIX_MIN && shared >= PREFIX_SHARE * Math.min(w.length, v.length)) closer(vStem, PREFIX_WEIGHT);
      }
      if (!edits || Math.abs(v.length - w.length) > edits) continue;
      const d = distance(w, v);
      if (d === 0 || d > edits || (d === 2 && v[0] !== w[0])) continue;
      closer(vStem, TYPO_WEIGHT[d]!);
    }
    slots.push([...near].map(([s, weight]) => ({ stem: s, weight })));
  }
  return slots;
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

/**
 * The passages relevant to `question`, best first, at most `limit`.
 *
 * Lexical: BM25 over the search index's analyzer (case and accents folded), stop words of pt, en
 * and es left out, words stemmed by the passage's language (Snowball), typos matched against the
 * passages' own words, a title word counting TITLE_WEIGHT times; passages in another language than
 * the question's (told by its function words) count OTHER_LANGUAGE of their score.
 *
 * The relevance floor decides whether the knowledge base covers the question at all: it does when
 * one passage covers MIN_COVERAGE of the question's weight, or holds at least two of its words and
 * covers MIN_COVERAGE_SEVERAL (one common word shared with a long question is no evidence). When no
 * passage does, the answer is []; when one does, the best passages sharing a word are answered.
 *
 * With embeddings (`vectors`): a passage whose cosine similarity reaches MIN_SIMILARITY also
 * passes the floor (and is a candidate without a shared word), and candidates are ordered by
 * reciprocal rank fusion of the BM25 ranking and the similarity ranking. `score` is the BM25
 * score, or the fused one with embeddings.
 */
export function rankPassages(
  passages: KnowledgePassage[],
  question: string,
  limit = KNOWLEDGE_TOP_K,
  opts: RankOptions = {},
): RetrievedPassage[] {
  const all = termsOf(question);
  const asked = [...new Set(all.filter(isContent))];
  if (!asked.length || !passages.length) return [];
  const index = indexOf(passages);
  const language = languageOf(all);
  const n = index.docs.length;
  const idf = (stem: string) => {
    const df = index.df.get(stem) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const rarest = idf('');
  const slotsBy = new Map<KnowledgeLanguage, { slots: Slot[]; total: number }>();
  for (const l of index.vocabulary.keys()) {
    const slots = slotsOf(asked, l, index);
    const total = slots.reduce((sum, s) => sum + (s.length ? Math.max(...s.map((a) => idf(a.stem))) : rarest), 0);
    slotsBy.set(l, { slots, total });
  }
  const minCoverage = opts.minCoverage ?? MIN_COVERAGE;
  const minCoverageSeveral = Math.min(minCoverage, opts.minCoverageSeveral ?? MIN_COVERAGE_SEVERAL);
  const lexical = index.docs.map((doc) => {
    const { slots, total } = slotsBy.get(doc.language)!;
    let score = 0;
    let covered = 0;
    let matched = 0;
    for (const slot of slots) {
      let best = 0;
      let cover = 0;
      for (const { stem, weight } of slot) {
        const tf = doc.tf.get(stem);
        if (!tf) continue;
        const w = weight * idf(stem);
        best = Math.max(best, (w * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.len) / index.avgLen)));
        cover = Math.max(cover, w);
      }
      score += best;
      covered += cover;
      if (cover) matched++;
    }
    const coverage = total ? covered / total : 0;
    return {
      score: language && doc.language !== language ? score * OTHER_LANGUAGE : score,
      relevant: score > 0 && (coverage >= minCoverage || (matched >= 2 && coverage >= minCoverageSeveral)),
    };
  });
  const vectors = opts.vectors;
  if (!vectors || vectors.passages.length !== passages.length) {
    if (!lexical.some((l) => l.relevant)) return [];
    return passages
      .map((p, i) => ({ ...p, score: lexical[i]!.score }))
      .filter((p) => p.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
  const similarity = vectors.passages.map((v) => cosine(vectors.question, v));
  const minSimilarity = opts.minSimilarity ?? MIN_SIMILARITY;
  if (!lexical.some((l) => l.relevant) && !similarity.some((x) => x >= minSimilarity)) return [];
  const rankBy = (values: number[]) => {
    const rank = new Array<number>(values.length);
    const order = values.map((value, i) => ({ value, i })).sort((a, b) => b.value - a.value);
    for (const [r, { i }] of order.entries()) rank[i] = r + 1;
    return rank;
  };
  const lexicalRank = rankBy(lexical.map((l) => l.score));
  const similarityRank = rankBy(similarity);
  return passages
    .map((p, i) => ({
      ...p,
      candidate: lexical[i]!.score > 0 || similarity[i]! >= minSimilarity,
      score: (lexical[i]!.score > 0 ? 1 / (RRF_K + lexicalRank[i]!) : 0) + 1 / (RRF_K + similarityRank[i]!),
    }))
    .filter((p) => p.candidate)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ candidate: _c, ...p }) => p);
}

/** Providers (by a hash of the key) that answered they have no embeddings, and until when that is believed. */
const withoutEmbeddings = new Map<string, number>();
const keyHash = (apiKey: string) => createHash('sha256').update(apiKey).digest('base64url');
const NOT_OFFERED_FOR_MS = 10 * 60_000;

/**
 * The question's and the passages' embeddings, or undefined when the provider has none (remembered
 * per key for NOT_OFFERED_FOR_MS, so each question does not ask again) or fails (logged; the
 * question is answered lexically, never left unanswered for it).
 */
async function embeddingsFor(
  companyId: number,
  passages: KnowledgePassage[],
  question: string,
  opts: RetrieveOptions & { apiKey: string },
): Promise<RankOptions['vectors']> {
  const key = keyHash(opts.apiKey);
  const until = withoutEmbeddings.get(key);
  if (until !== undefined) {
    if (until > Date.now()) return undefined;
    withoutEmbeddings.delete(key);
  }
  const port = opts.chatModel ?? openAiCompatible();
  const model = opts.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  const embed = (texts: string[]) => port.embed({ apiKey: opts.apiKey, model, texts });
  try {
    const [asked] = await embed([question]);
    const vectors = await passageVectors(companyId, passages, model, embed);
    if (!asked || vectors.some((v) => v.length !== asked.length)) return undefined;
    return { question: asked, passages: vectors };
  } catch (err) {
    if (err instanceof EmbeddingsNotOffered) remember(withoutEmbeddings, key, Date.now() + NOT_OFFERED_FOR_MS, 1000);
    else log.warn('knowledge embeddings failed, lexical retrieval only', { companyId, error: (err as Error).message });
    return undefined;
  }
}

/**
 * The company's passages most relevant to `question`, best first; [] when none is relevant (the
 * agent hands off rather than guess). Another company's are never read. With `apiKey`, embeddings
 * from the prompt's provider are fused in when it offers them.
 */
export async function retrieve(
  companyId: number,
  question: string,
  opts: RetrieveOptions = {},
): Promise<RetrievedPassage[]> {
  const passages = await loadPassages(companyId);
  if (!passages.length || !termsOf(question).some(isContent)) return [];
  const vectors = opts.apiKey
    ? await embeddingsFor(companyId, passages, question, { ...opts, apiKey: opts.apiKey })
    : undefined;
  return rankPassages(passages, question, opts.limit ?? KNOWLEDGE_TOP_K, { vectors });
}
