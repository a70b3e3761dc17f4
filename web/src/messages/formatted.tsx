const MARKS = [
  [/^\*[^*]+\*$/, 'strong'],
  [/^_[^_]+_$/, 'em'],
  [/^~[^~]+~$/, 's'],
] as const;

/** WhatsApp-style *bold*, _italic_, ~strike~ rendered safely (no HTML injection). */
export function formatted(text: string) {
  const parts = text.split(/(\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/g);
  return parts.map((part, i) => {
    const Tag = MARKS.find(([re]) => re.test(part))?.[1];
    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one split text have no identity and never reorder
    return Tag ? <Tag key={i}>{part.slice(1, -1)}</Tag> : part;
  });
}
