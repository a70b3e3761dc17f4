/**
 * An article's text as passages: paragraphs kept whole when they fit, long ones cut at sentence ends,
 * short neighbours joined, each about PASSAGE_CHARS long. A passage is what retrieval ranks and what the
 * agent quotes, so it should hold one answer: a few sentences, not a page.
 */
export const PASSAGE_CHARS = 700;
export const MAX_PASSAGES = 2000;

const sentences = (paragraph: string) => paragraph.match(/[^.!?]+(?:[.!?]+["')\]]*\s*|$)/g) ?? [paragraph];

export function splitIntoPassages(text: string, size = PASSAGE_CHARS): string[] {
  const pieces: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const clean = paragraph.replace(/[ \t]+/g, ' ').trim();
    if (!clean) continue;
    if (clean.length <= size) {
      pieces.push(clean);
      continue;
    }
    let current = '';
    for (const sentence of sentences(clean)) {
      if (current && current.length + sentence.length > size) {
        pieces.push(current.trim());
        current = '';
      }
      // a sentence longer than a passage is cut at a word boundary
      let rest = sentence;
      while (rest.length > size) {
        const cut = rest.lastIndexOf(' ', size);
        const at = cut > size / 2 ? cut : size;
        pieces.push(rest.slice(0, at).trim());
        rest = rest.slice(at);
      }
      current += rest;
    }
    if (current.trim()) pieces.push(current.trim());
  }
  // short neighbours (a heading, a one-line paragraph) join the next piece
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (
      last !== undefined &&
      (last.length < size / 4 || piece.length < size / 4) &&
      last.length + piece.length + 1 <= size
    )
      out[out.length - 1] = `${last}\n${piece}`;
    else out.push(piece);
  }
  return out;
}
