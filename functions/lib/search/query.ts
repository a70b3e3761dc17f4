import { words } from './normalize';

/**
 * A search query, parsed (docs/search.md):
 * - words are ANDed: a hit holds every one of them, in any order;
 * - `"bom dia"` is a phrase: those words next to each other, in that order;
 * - `word*` is a prefix; the LAST word of the query is a prefix too (search as you type), unless the
 *   query ends with a space or a closing quote;
 * - prefixes need at least MIN_PREFIX characters (a shorter last word must match whole).
 * Accents and case never matter (normalize.ts).
 */
export interface QueryTerm {
  word: string;
  prefix: boolean;
}
export interface ParsedQuery {
  /** every word of the query (phrase words included), for candidate lookup */
  terms: QueryTerm[];
  /** phrases of two words or more, each checked word by word in order */
  phrases: QueryTerm[][];
}

export const MIN_PREFIX = 2;
export const MAX_TERMS = 10;

export function parseQuery(raw: string): ParsedQuery {
  const terms: QueryTerm[] = [];
  const phrases: QueryTerm[][] = [];
  const parts = raw.split('"');
  // an unbalanced quote opens a phrase that runs to the end
  parts.forEach((part, i) => {
    const inPhrase = i % 2 === 1;
    const isLast = i === parts.length - 1;
    const tokens = part.split(/\s+/).filter(Boolean);
    const group: QueryTerm[] = [];
    tokens.forEach((token, j) => {
      const starred = token.endsWith('*');
      const ws = words(token);
      ws.forEach((word, k) => {
        const lastOfQuery = isLast && j === tokens.length - 1 && k === ws.length - 1 && !/\s$/.test(raw);
        const prefix = (starred && k === ws.length - 1) || lastOfQuery;
        group.push({ word, prefix: prefix && word.length >= MIN_PREFIX });
      });
      // a token that folds into several words ("e-mail", "11-9999") is a phrase of them
      if (!inPhrase && ws.length > 1) phrases.push(group.slice(-ws.length));
    });
    if (inPhrase && group.length > 1) phrases.push(group);
    terms.push(...group);
  });
  return { terms: terms.slice(0, MAX_TERMS), phrases: phrases.filter((p) => p.every((t) => terms.includes(t))) };
}

/** Whether a folded word matches a query term. */
export const matchesTerm = (word: string, term: QueryTerm) =>
  term.prefix ? word.startsWith(term.word) : word === term.word;
