import { batchGet } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { toMessage, type StoredMessage } from '../messages/repo';
import { flagUndelivered } from '../messages/delivery';
import { dueWatches, removeWatch, type Watch } from './repo';

/**
 * The undelivered watchdog (issue 15), platform-wide: every sent message whose wake-up is due
 * (UNDELIVERED_AFTER_MINUTES after the send) is looked at once; one still without a delivery ack
 * is flagged (messages/delivery.ts flagUndelivered). The wake-up is removed once handled; a failed
 * one stays and is tried again on the next run.
 */
export async function runUndeliveredWatchdog(now = new Date()) {
  let checked = 0;
  let flagged = 0;
  for (;;) {
    const due = await dueWatches(now);
    if (!due.length) break;
    const messages = new Map(
      (await batchGet(due.map((w) => ({ pk: w.msgPk, sk: w.msgSk })))).map((item) => [
        `${item.pk}|${item.sk}`,
        { ...toMessage(item), key: { pk: item.pk as string, sk: item.sk as string } } as StoredMessage,
      ]),
    );
    let failed = 0;
    for (const watch of due) {
      try {
        const message = messages.get(`${watch.msgPk}|${watch.msgSk}`);
        if (message && (await flagUndelivered(watch.companyId, message).catch(ticketGone))) flagged++;
        await removeWatch(watch);
        checked++;
      } catch (err) {
        failed++;
        logFailure(watch, err);
      }
    }
    // what failed stays due: stop rather than read it again in this run
    if (failed) break;
  }
  return { checked, flagged };
}

/** A message whose ticket was deleted since (or its whole company) has nothing left to flag. */
function ticketGone(err: unknown): false {
  if (err instanceof AppError && err.code === 'ERR_NO_TICKET_FOUND') return false;
  throw err;
}

function logFailure(watch: Watch, err: unknown) {
  log.error('undelivered watchdog failed', {
    companyId: watch.companyId,
    messageId: watch.messageId,
    error: (err as Error).message,
  });
}
