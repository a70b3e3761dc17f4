/**
 * Snooze (issue 40 item 6): an attendant puts an open ticket aside until a time or until the
 * customer writes. Meanwhile it is listed and counted under `snoozed` instead of `open`
 * (repo.ts listStatus, counts.ts), so it leaves the open list and its badge; `GET
 * /tickets?status=open&snoozed=true` lists it. It wakes, marked `snoozeWoke` {at, by} and back on
 * top of the open list, when its time comes (the `snooze` timer) or when the customer writes (the
 * inbound pipeline, inbound/wiring.ts); the attendant wakes it early with DELETE. Any transition
 * (close, return, transfer, takeover) ends it (transitions.ts). The mark goes with the next message
 * a person sends in the ticket (repo.ts bumpTicket), the next snooze or a transition.
 *
 * An ended snooze (and a cleared mark) is stored as null, so a client merging the update sees it go.
 *
 * Wake-ups: `SNOOZEDUE#<(cid+ticketId) % 4>` / `<until>#<cid>#<pad(ticketId)>` (functions/lib/due.ts),
 * written in the snooze's own transaction. The table is the truth: a wake-up whose ticket is no
 * longer snoozed until that time (woken early, closed, snoozed again, deleted) does nothing and goes.
 */
import { SNOOZE_MAX_DAYS, type Ticket, type TicketSnoozeBody } from '#shared/schemas/tickets';
import { deleteItem, putTx } from '../db';
import { dueAcrossShards, dueShardPk } from '../due';
import { AppError } from '../errors';
import { pad } from '../keys';
import { log } from '../log';
import { settingValue } from '../settings';
import { notifySnoozeWoke } from '../push/notify';
import { assertCanSee, assertMayChange, isAdmin, type Actor } from './access';
import { publishTicketChange } from './events';
import { mutateTicket } from './mutate';
import { requireStoredTicket, toTicket, type StoredTicket } from './repo';

export interface SnoozeWake {
  companyId: number;
  ticketId: number;
  until: string;
}
export const SNOOZE_DUE_PREFIX = 'SNOOZEDUE';
export const SNOOZE_DUE_SHARDS = 4;
export const snoozeWakeKeys = (w: SnoozeWake) => ({
  pk: dueShardPk(SNOOZE_DUE_PREFIX, (w.companyId + w.ticketId) % SNOOZE_DUE_SHARDS),
  sk: `${w.until}#${w.companyId}#${pad(w.ticketId)}`,
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** The snooze's end as stored (ISO, UTC), refused in the past or past SNOOZE_MAX_DAYS: ERR_SNOOZE_TIME_INVALID. */
export function snoozeUntil(body: TicketSnoozeBody, now: Date): string | null {
  if (body.until === undefined) return null;
  const at = Date.parse(body.until);
  if (!(at > now.getTime()) || at > now.getTime() + SNOOZE_MAX_DAYS * DAY_MS)
    throw new AppError('ERR_SNOOZE_TIME_INVALID', undefined, { maxDays: SNOOZE_MAX_DAYS });
  return new Date(at).toISOString();
}

/**
 * Who may snooze or wake a ticket: whoever may change it (it is visible to them, and the soft lock:
 * its holder, an admin, or anyone when the company enables `takeoverByAnyUser`).
 */
async function authorize(companyId: number, actor: Actor, ticketId: number) {
  const stored = await requireStoredTicket(companyId, ticketId);
  await assertCanSee(companyId, actor, stored);
  const takeover = isAdmin(actor) ? undefined : await settingValue(companyId, 'takeoverByAnyUser');
  // checked again on the ticket each write attempt finds (a concurrent takeover is seen)
  const mayChange = (t: StoredTicket) => assertMayChange(actor, t, takeover);
  mayChange(stored);
  return { stored, mayChange };
}

/** POST /tickets/{id}/snooze. A snooze again replaces the earlier one. */
export async function snoozeTicket(
  companyId: number,
  actor: Actor,
  ticketId: number,
  body: TicketSnoozeBody,
  now = new Date(),
): Promise<Ticket> {
  const until = snoozeUntil(body, now);
  const { stored, mayChange } = await authorize(companyId, actor, ticketId);
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => {
      mayChange(t);
      if (t.status !== 'open') throw new AppError('ERR_SNOOZE_NOT_OPEN');
      return {
        ...t,
        snooze: { until, at: now.toISOString(), userId: actor.userId },
        ...(t.snoozeWoke ? { snoozeWoke: null } : {}),
      };
    },
    {
      initial: stored,
      extra: () =>
        until ? [putTx({ ...snoozeWakeKeys({ companyId, ticketId, until }), companyId, ticketId, until })] : [],
    },
  );
  const ticket = toTicket(after);
  if (changed) await publishTicketChange(companyId, before, ticket);
  return ticket;
}

/** DELETE /tickets/{id}/snooze: the attendant wakes it now (no "woke" mark: they did it). */
export async function unsnoozeTicket(companyId: number, actor: Actor, ticketId: number): Promise<Ticket> {
  const { stored, mayChange } = await authorize(companyId, actor, ticketId);
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => {
      mayChange(t);
      if (!t.snooze) return null;
      return { ...t, snooze: null, updatedAt: new Date().toISOString() };
    },
    { initial: stored },
  );
  const ticket = toTicket(after);
  if (changed) await publishTicketChange(companyId, before, ticket);
  return ticket;
}

/**
 * The snooze ends by itself: the ticket goes back to the open list, on top, marked, and its viewers
 * get the update. `until`: a timer's wake-up, applied only to the snooze it was written for.
 * Undefined when the ticket was not (or no longer) snoozed so.
 */
async function wake(
  companyId: number,
  ticketId: number,
  by: 'time' | 'customer',
  now: Date,
  opts: { until?: string; initial?: StoredTicket } = {},
): Promise<StoredTicket | undefined> {
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => {
      if (!t.snooze || (opts.until !== undefined && t.snooze.until !== opts.until)) return null;
      const at = now.toISOString();
      return { ...t, snooze: null, snoozeWoke: { at, by }, updatedAt: at };
    },
    { initial: opts.initial },
  );
  if (!changed) return undefined;
  await publishTicketChange(companyId, before, toTicket(after));
  return after;
}

/**
 * A customer's message on a snoozed ticket wakes it (inbound/wiring.ts, after the message is
 * stored; the message's own push tells the attendant). Returns the ticket as it is now.
 */
export async function wakeOnCustomerMessage<T extends Ticket>(companyId: number, ticket: T): Promise<T | Ticket> {
  if (!ticket.snooze) return ticket;
  const after = await wake(companyId, ticket.id, 'customer', new Date());
  return after ? toTicket(after) : ticket;
}

export const dueSnoozeWakes = (now: Date, limit = 100) =>
  dueAcrossShards<SnoozeWake>(SNOOZE_DUE_PREFIX, SNOOZE_DUE_SHARDS, now, limit);

/**
 * Timer `snooze` (every minute, platform-wide): each due wake-up wakes its ticket when it is still
 * snoozed until that time, and its attendant gets a push. A handled wake-up is removed (also one
 * whose ticket is gone); a failed one stays and is tried on the next run.
 */
export async function runSnoozeTimer(now = new Date()) {
  let checked = 0;
  let woke = 0;
  for (;;) {
    const due = await dueSnoozeWakes(now);
    if (!due.length) break;
    let failed = 0;
    for (const w of due) {
      try {
        const after = await wake(w.companyId, w.ticketId, 'time', now, { until: w.until }).catch((err) => {
          if (err instanceof AppError && err.code === 'ERR_NO_TICKET_FOUND') return undefined;
          throw err;
        });
        if (after) {
          woke++;
          await notifySnoozeWoke(w.companyId, after);
        }
        await deleteItem(snoozeWakeKeys(w));
        checked++;
      } catch (err) {
        failed++;
        log.error('snooze wake failed', {
          companyId: w.companyId,
          ticketId: w.ticketId,
          error: (err as Error).message,
        });
      }
    }
    // what failed stays due: stop rather than read it again in this run
    if (failed) break;
  }
  return { checked, woke };
}
