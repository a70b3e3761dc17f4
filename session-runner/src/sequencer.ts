/**
 * Runs tasks of one group one after another, tasks of different groups side by side, at most
 * `limit` at once: commands of one connection, and the provider events of one chat (an edit or a
 * revoke must not overtake its message; an offline backlog must not start hundreds of downloads).
 */
export function perGroupSequencer(limit = Number.POSITIVE_INFINITY) {
  const chains = new Map<string, Promise<void>>();
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    if (running < limit) {
      running++;
      return;
    }
    // the finishing task hands its slot over
    await new Promise<void>((take) => waiting.push(take));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return (group: string, task: () => Promise<void>): Promise<void> => {
    const run = async () => {
      await acquire();
      try {
        await task();
      } finally {
        release();
      }
    };
    const next = (chains.get(group) ?? Promise.resolve()).then(run, run);
    chains.set(group, next);
    void next.finally(() => chains.get(group) === next && chains.delete(group)).catch(() => undefined);
    return next;
  };
}
