import { getItem, updateItem, deleteItem } from '../db';
import { ttlIn } from '../keys';
import { AppError } from '../errors';

/** Repeated failed logins for one e-mail are refused for a while (`LOGINFAIL#<email>`, TTL). */
const MAX_FAILURES = 5;
const WINDOW_SECONDS = 15 * 60;
const keys = (email: string) => ({ pk: `LOGINFAIL#${email.toLowerCase()}`, sk: 'LF' });

export async function assertLoginAllowed(email: string) {
  const item = await getItem<{ count: number; ttl: number }>(keys(email));
  if (item && item.ttl > Date.now() / 1000 && item.count >= MAX_FAILURES) throw new AppError('ERR_TOO_MANY_ATTEMPTS');
}

export async function recordLoginFailure(email: string) {
  await updateItem(keys(email), { add: { count: 1 }, set: { ttl: ttlIn(WINDOW_SECONDS) } });
}

export async function clearLoginFailures(email: string) {
  await deleteItem(keys(email));
}
