import { log } from './log';

const pending = new Set<Promise<void>>();

/**
 * Work a request starts but does not answer with (a read's side effect, such as the unread reset of
 * a message page): it starts now and the answer does not wait for it; its failure is logged with
 * the request's context. On Lambda the runtime may freeze the instance once the handler has answered:
 * the work then goes on when the instance next runs.
 */
export function afterAnswer(name: string, work: () => Promise<unknown>) {
  const running: Promise<void> = work()
    .then(() => undefined)
    .catch((err: unknown) => log.error('after-answer work failed', { work: name, error: (err as Error)?.message }))
    .finally(() => pending.delete(running));
  pending.add(running);
}

/** Resolves once the work started by `afterAnswer` so far has ended (tests, a clean stop). */
export async function answeredWorkSettled() {
  while (pending.size) await Promise.all(pending);
}
