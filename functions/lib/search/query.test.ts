import { describe, expect, it } from 'vitest';
import { fold, words, wordsAt } from './normalize';
import { parseQuery } from './query';

describe('search normaliser', () => {
  it('folds case and accents of pt, es and en words alike', () => {
    expect(words('Ação CORAÇÃO pingüino Niño résumé')).toEqual(['acao', 'coracao', 'pinguino', 'nino', 'resume']);
  });
  it('keeps one unit per unit, so offsets point into the original text', () => {
    const text = 'Olá, São Paulo 😀 ÇA';
    expect(fold(text)).toHaveLength(text.length);
    const sao = wordsAt(text).find((w) => w.word === 'sao')!;
    expect(text.slice(sao.start, sao.end)).toBe('São');
  });
  it('splits on punctuation, so e-mail addresses and numbers are words', () => {
    expect(words('joão@mail.com +55 (11) 9999-0000')).toEqual(['joao', 'mail', 'com', '55', '11', '9999', '0000']);
  });
});

describe('search query parsing', () => {
  it('the last word is a prefix while typing, the others whole words', () => {
    expect(parseQuery('boleto venc').terms).toEqual([
      { word: 'boleto', prefix: false },
      { word: 'venc', prefix: true },
    ]);
  });
  it('a trailing space makes the last word whole', () => {
    expect(parseQuery('boleto ').terms).toEqual([{ word: 'boleto', prefix: false }]);
  });
  it('word* is a prefix anywhere', () => {
    expect(parseQuery('entreg* amanha ').terms).toEqual([
      { word: 'entreg', prefix: true },
      { word: 'amanha', prefix: false },
    ]);
  });
  it('a quoted phrase keeps its words in order; closed, its last word is whole', () => {
    const q = parseQuery('"Bom Dia" pedido ');
    expect(q.phrases).toEqual([
      [
        { word: 'bom', prefix: false },
        { word: 'dia', prefix: false },
      ],
    ]);
    expect(q.terms.map((t) => t.word)).toEqual(['bom', 'dia', 'pedido']);
  });
  it('an open phrase at the end is typed: its last word is a prefix', () => {
    expect(parseQuery('"bom di').phrases[0]!.at(-1)).toEqual({ word: 'di', prefix: true });
  });
  it('a one-letter last word is not a prefix (it would match almost everything)', () => {
    expect(parseQuery('pedido a').terms.at(-1)).toEqual({ word: 'a', prefix: false });
  });
  it('accents and case in the query are folded', () => {
    expect(parseQuery('AÇÃO ').terms).toEqual([{ word: 'acao', prefix: false }]);
  });
  it('punctuation alone is no query', () => {
    expect(parseQuery(' ?! ').terms).toEqual([]);
  });
});
