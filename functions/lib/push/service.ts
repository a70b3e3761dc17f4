import { MAX_PUSH_DEVICES_PER_USER } from '#shared/constants';
import type { PushConfig, PushDevice, PushSubscriptionBody, PushSubscriptionUpdateBody } from '#shared/schemas/push';
import { config } from '../config';
import { AppError } from '../errors';
import { nowIso } from '../keys';
import { vapidKeys } from '../secrets';
import { endpointId, isAllowedPushEndpoint } from './endpoint';
import {
  deleteSubscription,
  getSubscription,
  listUserSubscriptions,
  putSubscription,
  toDevice,
  updateSubscription,
  type StoredSubscription,
} from './repo';

interface Me {
  companyId: number;
  userId: number;
}

/** GET /push/config: the public key browsers subscribe with. */
export async function pushConfig(): Promise<PushConfig> {
  const keys = await vapidKeys();
  if (!keys) throw new AppError('ERR_PUSH_NOT_CONFIGURED');
  return { publicKey: keys.publicKey };
}

/**
 * POST /push/subscriptions: this browser's subscription for the caller, upserted by endpoint (the
 * same endpoint again updates it, keeping when it was first made). Only endpoints of known push
 * services are accepted: the push sender POSTs to them.
 *
 * At most MAX_PUSH_DEVICES_PER_USER devices per user: a new one past the cap replaces the user's
 * stalest devices (least recently subscribed or changed) instead of being refused, because a browser
 * that reinstalls or clears its data gets a new endpoint and the old one is never unsubscribed; a
 * refusal would lock the user out of push on the phone they actually use. Without a counter, two
 * new devices at once may leave one too many until the next subscription trims it.
 */
export async function subscribe(me: Me, body: PushSubscriptionBody): Promise<{ device: PushDevice; created: boolean }> {
  if (!isAllowedPushEndpoint(body.endpoint, config().pushFakeOrigin))
    throw new AppError('ERR_PUSH_ENDPOINT_NOT_ALLOWED');
  const id = endpointId(body.endpoint);
  const before = await getSubscription(me.companyId, id);
  const mine = before?.userId === me.userId ? before : undefined;
  const now = nowIso();
  const sub: StoredSubscription = {
    id,
    companyId: me.companyId,
    userId: me.userId,
    endpoint: body.endpoint,
    keys: { p256dh: body.keys.p256dh.replace(/=+$/, ''), auth: body.keys.auth.replace(/=+$/, '') },
    device: body.device ?? mine?.device ?? '',
    preferences: body.preferences,
    createdAt: mine?.createdAt ?? now,
    updatedAt: now,
  };
  await putSubscription(sub);
  if (!mine) await trimDevices(me, id);
  return { device: toDevice(sub), created: !mine };
}

/** Removes the user's stalest devices past the cap, never `keep` (the one just subscribed). */
async function trimDevices(me: Me, keep: string) {
  const others = (await listUserSubscriptions(me.companyId, me.userId))
    .filter((s) => s.id !== keep)
    .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  const excess = others.length + 1 - MAX_PUSH_DEVICES_PER_USER;
  for (const stale of others.slice(0, Math.max(0, excess))) await forgetDevice(me, stale.id);
}

/** GET /push/subscriptions: the caller's devices. */
export async function myDevices(me: Me): Promise<PushDevice[]> {
  return (await listUserSubscriptions(me.companyId, me.userId)).map(toDevice);
}

/** PUT /push/subscriptions/{id}: the caller's device's name or preferences. */
export async function updateDevice(me: Me, id: string, body: PushSubscriptionUpdateBody): Promise<PushDevice> {
  const current = await getSubscription(me.companyId, id);
  if (current?.userId !== me.userId) throw new AppError('ERR_PUSH_SUBSCRIPTION_NOT_FOUND');
  const updated = await updateSubscription(me.companyId, me.userId, id, {
    device: body.device,
    preferences: body.preferences ? { ...current.preferences, ...body.preferences } : undefined,
    updatedAt: nowIso(),
  });
  return toDevice(updated);
}

/** DELETE /push/subscriptions/{id}: push to that device stops. */
export async function removeDevice(me: Me, id: string) {
  await deleteSubscription(me.companyId, me.userId, id);
}

/**
 * Logout on a device (issue 25): the subscription of `endpoint`, the browser signing out, stops
 * receiving the user's pushes. Nothing happens when it is not theirs (another user's, or none).
 */
export async function forgetEndpoint(me: Me, endpoint: string) {
  await forgetDevice(me, endpointId(endpoint));
}

/** Deletes the user's device `id` if it is still theirs (gone already, or taken over, is fine). */
async function forgetDevice(me: Me, id: string) {
  await deleteSubscription(me.companyId, me.userId, id).catch((err) => {
    if (!(err instanceof AppError && err.code === 'ERR_PUSH_SUBSCRIPTION_NOT_FOUND')) throw err;
  });
}
