/**
 * `@Name` mentions in an internal chat message: each `@` followed by a member's name (any case,
 * ending where a word ends) names that member; of names that start alike (`@Ana` and `@Ana Souza`)
 * the longest one written wins. Only members count: nobody outside the chat is ever found.
 */
export function mentionedMembers<M extends { id: number; name: string }>(text: string, members: M[]): M[] {
  const byLength = members
    .filter((m) => m.name.trim())
    .map((m) => ({ member: m, name: m.name.trim().toLocaleLowerCase() }))
    .sort((a, b) => b.name.length - a.name.length);
  const lower = text.toLocaleLowerCase();
  const found = new Map<number, M>();
  for (let at = lower.indexOf('@'); at >= 0; at = lower.indexOf('@', at + 1)) {
    // a mention starts a word: `mail@Ana` is an address, not a mention
    if (at > 0 && WORD.test(lower[at - 1]!)) continue;
    const match = byLength.find(
      ({ name }) => lower.startsWith(name, at + 1) && !WORD.test(lower[at + 1 + name.length] ?? ''),
    );
    if (match) found.set(match.member.id, match.member);
  }
  return [...found.values()];
}

const WORD = /[\p{L}\p{N}_]/u;
