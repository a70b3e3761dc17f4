import { randomUUID } from 'node:crypto';
import { batchGet, getItem, putItem } from '../db';
import { ttlIn } from '../keys';
import { AppError } from '../errors';
import { sendSessionCommand } from './commands';
import { requireWhatsapp } from './repo';
import { assertWebSession } from '../whatsapp-cloud/connection';
import { stopChecksToday, takeChecks } from '../campaigns/check-budget';

/**
 * "Is this number on WhatsApp?" goes to the runner holding the session: the API enqueues a
 * `checkNumber` command with a reply id and waits (briefly) for the result item the inbound
 * pipeline writes from the runner's `checkNumberResult`. Answers are cached per number for a day;
 * a number not in the cache takes a check from the connection's daily budget (check-budget.ts).
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

type Cached = NumberCheck & { sk: string; ttl?: number };
// DynamoDB removes an expired item only some time after its TTL: until then it is read as gone
const fresh = (item: Cached | undefined) => (item && (item.ttl ?? 0) * 1000 > Date.now() ? item : undefined);

/** The cached answer about a number asked on the connection within the last day. */
export const cachedNumberCheck = async (companyId: number, whatsappId: number, digits: string) =>
  fresh(await getItem<Cached>(cacheKeys(companyId, whatsappId, digits)));

/** The cached answers about numbers asked on the connection within the last day, by number. */
export async function cachedNumberChecks(companyId: number, whatsappId: number, numbers: string[]) {
  const found = await batchGet<Cached>(numbers.map((n) => cacheKeys(companyId, whatsappId, n)));
  return new Map(found.filter((f) => fresh(f)).map((f) => [f.sk.slice(f.sk.indexOf('#') + 1), f as NumberCheck]));
}

/** Keeps a day a runner's answer about a number (a check that could not be made is not kept). */
export async function cacheNumberCheck(companyId: number, whatsappId: number, digits: string, result: NumberCheck) {
  await putItem({ ...cacheKeys(companyId, whatsappId, digits), ...result, ttl: ttlIn(24 * 3600) });
}

export async function recordNumberCheck(
  ev: { companyId: number; whatsappId: number; number: string; replyTo: string } & NumberCheck,
) {
  const result = { exists: ev.exists, jid: ev.jid, error: ev.error };
  await putItem({ ...replyKeys(ev.replyTo), companyId: ev.companyId, ...result, ttl: ttlIn(300) });
  if (ev.error === 'ERR_NUMBER_CHECK_RESTRICTED') await stopChecksToday(ev.companyId, ev.whatsappId);
  else if (!ev.error) await cacheNumberCheck(ev.companyId, ev.whatsappId, ev.number, result);
}

/** The number's WhatsApp jid; ERR_WAPP_INVALID_CONTACT when it is not on WhatsApp. */
export async function checkNumber(
  companyId: number,
  whatsappId: number,
  digits: string,
  waitMs = 10_000,
): Promise<string> {
  // the Cloud API has no "is this number on WhatsApp?" query
  const whatsapp = await requireWhatsapp(companyId, whatsappId);
  assertWebSession(whatsapp);
  let result: NumberCheck | undefined = await cachedNumberCheck(companyId, whatsappId, digits);
  if (!result) {
    const { granted, stop } = await takeChecks(companyId, whatsapp, 1);
    if (!granted)
      throw new AppError(stop?.reason === 'checkBudget' ? 'ERR_NUMBER_CHECK_BUDGET' : 'ERR_NUMBER_CHECK_RESTRICTED');
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
  if (result.error === 'ERR_WAPP_NOT_INITIALIZED' || result.error === 'ERR_NUMBER_CHECK_RESTRICTED')
    throw new AppError(result.error);
  if (result.error) throw new AppError('ERR_WAPP_CHECK_CONTACT');
  if (!result.exists || !result.jid) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  return result.jid;
}
