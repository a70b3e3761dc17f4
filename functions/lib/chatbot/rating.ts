import type { Ticket } from '#shared/schemas/tickets';
import type { Rating } from '#shared/schemas/tickets';
import { fillVariables } from '#shared/message-variables';
import { deleteItem, getItem, putItem } from '../db';
import { ttlIn } from '../keys';
import { log } from '../log';
import { AppError } from '../errors';
import { settingValue } from '../settings';
import { getWhatsapp } from '../whatsapp/repo';
import { sendMessage } from '../messages/send';
import { getStoredTicket, toTicket } from '../tickets/repo';
import { recordRating } from '../tickets/mutate';
import { scheduleDue } from './timers';

/**
 * Rating after close (setting `userRating`): closing a ticket sends the connection's ratingMessage
 * with the 1-3 scale and waits for the contact's answer; the answer is recorded against the
 * attendant (recordRating) and the completion message follows. Without an answer the wait ends
 * after RATING_WAIT_MINUTES (the ticket is already closed).
 * The wait: `C#<cid>` / `RATING#<whatsappId>#<contactId>` {ticketId, userId, askedAt}.
 */
export const RATING_WAIT_MINUTES = 30;
const ratingKeys = (companyId: number, whatsappId: number, contactId: number) => ({
  pk: `C#${companyId}`,
  sk: `RATING#${whatsappId}#${contactId}`,
});

export const RATING_SCALE = '\n\n*[ 1 ]* - Insatisfeito\n*[ 2 ]* - Satisfeito\n*[ 3 ]* - Muito satisfeito';

export interface AwaitedRatingItem {
  ticketId: number;
  userId: number | null;
  askedAt: number;
}

const variables = (ticket: Ticket) => ({ contactName: ticket.contact.name, now: new Date(), protocol: ticket.id });

/**
 * To be called after a ticket is closed (attendance.md 4.2 resolve; the expiry timer): asks for the
 * rating, or sends the completion message when ratings are off. Once per close: a second call for
 * the same close (same finishedAt) does nothing.
 */
export async function onTicketClosed(companyId: number, ticket: Ticket) {
  if (ticket.isGroup || ticket.status !== 'closed') return;
  const whatsapp = await getWhatsapp(companyId, ticket.whatsappId);
  if (!whatsapp) return;
  try {
    await putItem(
      {
        pk: `C#${companyId}`,
        sk: `CLOSENOTE#${ticket.id}#${ticket.finishedAt ?? ticket.updatedAt}`,
        ttl: ttlIn(2 * 24 * 3600),
      },
      { ifNotExists: true },
    );
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_DUPLICATED') return;
    throw err;
  }
  try {
    if ((await settingValue(companyId, 'userRating')) === 'enabled' && whatsapp.ratingMessage.trim()) {
      await sendMessage(companyId, ticket, {
        body: fillVariables(whatsapp.ratingMessage, variables(ticket)) + RATING_SCALE,
        automatic: true,
      });
      await putItem({
        ...ratingKeys(companyId, ticket.whatsappId, ticket.contactId),
        ticketId: ticket.id,
        userId: ticket.userId,
        askedAt: Date.now(),
        ttl: ttlIn(RATING_WAIT_MINUTES * 60 + 3600),
      });
      await scheduleDue(
        'rating',
        companyId,
        ticket.id,
        RATING_WAIT_MINUTES,
        `${ticket.whatsappId}#${ticket.contactId}`,
      );
      return;
    }
    if (whatsapp.complationMessage.trim()) {
      await sendMessage(companyId, ticket, {
        body: fillVariables(whatsapp.complationMessage, variables(ticket)),
        automatic: true,
      });
    }
  } catch (err) {
    log.error('closing messages failed', { ticketId: ticket.id, error: (err as Error).message });
  }
}

export async function awaitedRating(
  companyId: number,
  whatsappId: number,
  contactId: number,
): Promise<AwaitedRatingItem | undefined> {
  const item = await getItem<AwaitedRatingItem & { ttl: number }>(ratingKeys(companyId, whatsappId, contactId));
  // DynamoDB deletes expired items lazily: an expired wait is over
  if (!item || item.ttl < Date.now() / 1000) return undefined;
  return { ticketId: item.ticketId, userId: item.userId, askedAt: item.askedAt };
}

/** The answer (1-3) is recorded and thanked with the completion message; null ends the wait unrated. */
export async function finishRating(companyId: number, whatsappId: number, contactId: number, rating: number | null) {
  const wait = await awaitedRating(companyId, whatsappId, contactId);
  await deleteItem(ratingKeys(companyId, whatsappId, contactId));
  if (!wait || rating === null) return;
  await recordRating(companyId, wait.ticketId, rating as Rating);
  const [stored, whatsapp] = await Promise.all([
    getStoredTicket(companyId, wait.ticketId),
    getWhatsapp(companyId, whatsappId),
  ]);
  const ticket = stored && toTicket(stored);
  if (ticket && whatsapp?.complationMessage.trim()) {
    await sendMessage(companyId, ticket, {
      body: fillVariables(whatsapp.complationMessage, variables(ticket)),
      automatic: true,
    });
  }
}

/** The rating timer: the contact never answered. */
export async function expireRatingWait(companyId: number, marker: string | undefined) {
  const [whatsappId, contactId] = (marker ?? '').split('#').map(Number);
  if (whatsappId && contactId) await deleteItem(ratingKeys(companyId, whatsappId, contactId));
}
