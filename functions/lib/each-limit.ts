/**
 * Runs `work` over `items` with at most `limit` calls in flight at once, in the items' order of
 * start; rejects with the first failure (the calls already running go on to their end).
 */
export async function eachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** `items` cut into runs of `size` (the last may be shorter). */
export const chunked = <T>(items: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
