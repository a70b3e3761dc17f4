import { log } from './log';

const pending = new Set<Promise<void>>();

/**
 * Work a request starts but does not answer with (a read's side effect, such as the unread reset of
 * a message page): it starts now and the answer does not wait for it; its failure is logged with
 * the request's context. On Lambda the runtime freezes the instance once the handler has returned,
 * and work still running would wait for that instance's next request (an unread count that stays
 * until then): there the handler ends only once its work has (`settleBeforeFreeze`), the work having
 * run beside the rest of the answer. A long-lived process (the local stack) answers at once.
 */
export function afterAnswer(name: string, work: () => Promise<unknown>) {
  const running: Promise<void> = work()
    .then(() => undefined)
    .catch((err: unknown) => log.error('after-answer work failed', { work: name, error: (err as Error)?.message }))
    .finally(() => pending.delete(running));
  pending.add(running);
}

/** On Lambda, the request's work started by `afterAnswer` ends before the handler returns (see above). */
export async function settleBeforeFreeze(env: NodeJS.ProcessEnv = process.env) {
  if (env.AWS_LAMBDA_FUNCTION_NAME) await answeredWorkSettled();
}

/** Resolves once the work started by `afterAnswer` so far has ended (tests, a clean stop). */
export async function answeredWorkSettled() {
  while (pending.size) await Promise.all(pending);
}
