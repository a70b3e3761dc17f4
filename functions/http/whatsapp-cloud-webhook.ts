import '#lib/startup';
import { httpModule, reply, route } from '#lib/http';
import { CloudVerifyQuery } from '#shared/schemas/whatsapp-cloud';
import { acceptNotification, answerVerification } from '#lib/whatsapp-cloud/webhook';

/**
 * Meta's webhook for WhatsApp Cloud API connections: public, proven by the verify token (GET) and
 * by the X-Hub-Signature-256 of the raw body (POST). Accepted notifications go on the `inbound`
 * queue at once; Meta redelivers anything not answered 200.
 */
export const handler = httpModule({
  'GET /webhooks/whatsapp-cloud': route({ public: true, query: CloudVerifyQuery }, async ({ query }) =>
    reply(await answerVerification(query), 200, {
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    }),
  ),

  'POST /webhooks/whatsapp-cloud': route({ public: true }, async ({ event, headers }) => {
    // the bytes Meta signed: never parsed and serialized again before the check
    const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');
    const queued = await acceptNotification(raw, headers['x-hub-signature-256']);
    return { received: true, queued };
  }),
});
