import { randomUUID } from 'node:crypto';
import { getItem, putItem } from '../db';
import { ttlIn } from '../keys';
import { AppError } from '../errors';
import { sendSessionCommand } from './commands';
import { requireWhatsapp } from './repo';
import { assertWebSession } from '../whatsapp-cloud/connection';

/**
 * "Is this number on WhatsApp?" goes to the runner holding the session: the API enqueues a
 * `checkNumber` command with a reply id and waits (briefly) for the result item the inbound
 * pipeline writes from the runner's `checkNumberResult`. Answers are cached per number for a day.
 *   reply: `WCHECK#<replyId>` / `WCHECK` (TTL 5 min); cache: `C#<cid>#WNUMBER` / `<wid>#<digits>` (TTL 1 day)
 */
const replyKeys = (replyTo: string) => ({ pk: `WCHECK#${replyTo}`, sk: 'WCHECK' });
const cacheKeys = (companyId: number, whatsappId: number, digits: string) => ({
  pk: `C#${companyId}#WNUMBER`,
  sk: `${whatsappId}#${digits}`,
});

export interface NumberCheck {
  exists: boolean;
  jid?: string;
  error?: string;
}

export async function recordNumberCheck(
  ev: { companyId: number; whatsappId: number; number: string; replyTo: string } & NumberCheck,
) {
  const result = { exists: ev.exists, jid: ev.jid, error: ev.error };
  await putItem({ ...replyKeys(ev.replyTo), companyId: ev.companyId, ...result, ttl: ttlIn(300) });
  if (!ev.error)
    await putItem({ ...cacheKeys(ev.companyId, ev.whatsappId, ev.number), ...result, ttl: ttlIn(24 * 3600) });
}

/** The number's WhatsApp jid; ERR_WAPP_INVALID_CONTACT when it is not on WhatsApp. */
export async function checkNumber(
  companyId: number,
  whatsappId: number,
  digits: string,
  waitMs = 10_000,
): Promise<string> {
  // the Cloud API has no "is this number on WhatsApp?" query
  assertWebSession(await requireWhatsapp(companyId, whatsappId));
  const cached = await getItem<NumberCheck>(cacheKeys(companyId, whatsappId, digits));
  let result: NumberCheck | undefined = cached;
  if (!result) {
    const replyTo = randomUUID();
    await sendSessionCommand({ type: 'checkNumber', companyId, whatsappId, number: digits, replyTo });
    const until = Date.now() + waitMs;
    while (!result && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      const item = await getItem<NumberCheck & { companyId: number }>(replyKeys(replyTo));
      if (item && item.companyId === companyId) result = item;
    }
  }
  if (!result) throw new AppError('ERR_WAPP_CHECK_CONTACT');
  if (result.error === 'ERR_WAPP_NOT_INITIALIZED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  if (result.error) throw new AppError('ERR_WAPP_CHECK_CONTACT');
  if (!result.exists || !result.jid) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  return result.jid;
}
