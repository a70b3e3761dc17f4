import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { PushSubscriptionBody, PushSubscriptionUpdateBody, pushSubscriptionId } from '#shared/schemas/push';
import { myDevices, pushConfig, removeDevice, subscribe, updateDevice } from '#lib/push/service';

const params = z.object({ id: pushSubscriptionId });

/** Web Push (issue 25): any signed-in user turns push on for their devices and picks what is pushed. */
export const handler = httpModule({
  'GET /push/config': route({}, async () => pushConfig()),

  'POST /push/subscriptions': route({ body: PushSubscriptionBody }, async ({ auth, body }) => {
    const { device, created } = await subscribe(auth, body);
    return reply(device, created ? 201 : 200);
  }),

  'GET /push/subscriptions': route({}, async ({ auth }) => myDevices(auth)),

  'PUT /push/subscriptions/{id}': route({ params, body: PushSubscriptionUpdateBody }, async ({ auth, params, body }) =>
    updateDevice(auth, params.id, body),
  ),

  'DELETE /push/subscriptions/{id}': route({ params }, async ({ auth, params }) => {
    await removeDevice(auth, params.id);
    return { message: 'Subscription deleted' };
  }),
});
