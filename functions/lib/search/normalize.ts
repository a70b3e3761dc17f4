/**
 * The one analyzer of search, used by both adapters' documents and queries: lower case and accents
 * removed (NFD, combining marks dropped), so "Ação", "acao" and "ACAO" are one word in pt, en and es.
 * The OpenSearch index applies the same folding (`lowercase` + `asciifolding`) to what it stores.
 *
 * `fold` keeps one output unit per input unit, so a match's offsets in the folded text are its
 * offsets in the original (the highlight ranges point into the original text).
 */
const MARKS = /\p{M}/gu;
const foldCache = new Map<string, string>();

function foldUnit(unit: string): string {
  let out = foldCache.get(unit);
  if (out === undefined) {
    const folded = unit.normalize('NFD').replace(MARKS, '').toLowerCase();
    out = folded.length === 1 ? folded : unit.toLowerCase().length === 1 ? unit.toLowerCase() : unit;
    if (foldCache.size < 10_000) foldCache.set(unit, out);
  }
  return out;
}

export function fold(text: string): string {
  // plain ASCII is the common case: lower case keeps the length
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const unit of text) out += unit.length === 1 ? foldUnit(unit) : unit;
  return out;
}

/** A word: a run of letters and digits (`@`, `.`, `-` and spaces separate words). */
export const WORD = /[\p{L}\p{N}]+/gu;

/** The folded words of a text, in order. */
export function words(text: string): string[] {
  return fold(text).match(WORD) ?? [];
}

/** The folded words of a text with their offsets (in the original text). */
export function wordsAt(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const m of fold(text).matchAll(WORD)) out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}
