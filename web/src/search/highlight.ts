/** [start, end) offsets of matched words, as GET /search returns them. */
export type Range = [number, number];
export interface Segment {
  text: string;
  mark: boolean;
}

/** A text cut into plain and marked pieces (ranges sorted, overlaps merged, out-of-text parts dropped). */
export function segments(text: string, ranges: Range[]): Segment[] {
  const sorted = ranges
    .map(([a, b]) => [Math.max(0, a), Math.min(text.length, b)] as Range)
    .filter(([a, b]) => a < b)
    .sort((x, y) => x[0] - y[0]);
  const out: Segment[] = [];
  let at = 0;
  for (const [a, b] of sorted) {
    if (b <= at) continue;
    const start = Math.max(a, at);
    if (start > at) out.push({ text: text.slice(at, start), mark: false });
    const last = out[out.length - 1];
    if (last?.mark && start === at) last.text += text.slice(start, b);
    else out.push({ text: text.slice(start, b), mark: true });
    at = b;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}

/**
 * A long text shortened around its first match: up to `before` characters ahead of it (from a word
 * start, with an ellipsis) and `max` in all; the ranges follow the cut.
 */
export function snippet(text: string, ranges: Range[], max = 220, before = 60): { text: string; ranges: Range[] } {
  if (text.length <= max) return { text, ranges };
  const first = ranges.length ? Math.min(...ranges.map((r) => r[0])) : 0;
  let start = Math.max(0, first - before);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < first) start = space + 1;
  }
  const end = Math.min(text.length, start + max);
  const lead = start > 0 ? '… ' : '';
  const shift = lead.length - start;
  return {
    text: `${lead}${text.slice(start, end)}${end < text.length ? ' …' : ''}`,
    ranges: ranges.filter(([a, b]) => a >= start && b <= end).map(([a, b]) => [a + shift, b + shift] as Range),
  };
}
