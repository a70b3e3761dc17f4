import { describe, expect, it } from 'vitest';
import { segments, snippet } from './highlight';

describe('search highlights', () => {
  it('cuts a text into plain and marked pieces', () => {
    expect(
      segments('bom dia, tudo bem', [
        [0, 3],
        [9, 13],
      ]),
    ).toEqual([
      { text: 'bom', mark: true },
      { text: ' dia, ', mark: false },
      { text: 'tudo', mark: true },
      { text: ' bem', mark: false },
    ]);
  });
  it('merges overlapping ranges and ignores ones outside the text', () => {
    expect(
      segments('abcdef', [
        [2, 4],
        [0, 3],
        [10, 12],
      ]),
    ).toEqual([
      { text: 'abcd', mark: true },
      { text: 'ef', mark: false },
    ]);
  });
  it('a long text is cut around its first match, the ranges following', () => {
    const text = `${'palavra '.repeat(40)}boleto vencido ${'fim '.repeat(40)}`;
    const at = text.indexOf('boleto');
    const cut = snippet(text, [[at, at + 6]], 100, 20);
    expect(cut.text.startsWith('… ')).toBe(true);
    expect(cut.text.endsWith(' …')).toBe(true);
    const [[a, b]] = cut.ranges as [[number, number]];
    expect(cut.text.slice(a, b)).toBe('boleto');
  });
});
