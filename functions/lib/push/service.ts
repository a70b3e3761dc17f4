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
  return { device: toDevice(sub), created: !mine };
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
  await deleteSubscription(me.companyId, me.userId, endpointId(endpoint)).catch((err) => {
    if (!(err instanceof AppError && err.code === 'ERR_PUSH_SUBSCRIPTION_NOT_FOUND')) throw err;
  });
}
