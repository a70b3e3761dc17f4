import '#lib/startup';
import { httpModule, route, reply } from '#lib/http';
import { CheckoutBody } from '#shared/schemas/billing';
import { PLATFORM_COMPANY_ID } from '#shared/constants';
import { AppError } from '#lib/errors';
import { ASAAS_PAID_EVENTS, webhookTokenMatches } from '#lib/billing/asaas';
import { checkout, confirmPayment, subscriptionInfo } from '#lib/billing/payments';
import { settingValue } from '#lib/settings';
import { ADMIN_AREA } from '#lib/users/service';
import { log } from '#lib/log';

/**
 * The subscription page and the checkout (management.md "Invoices and checkout"): both reachable by
 * an expired company's admins. The provider's webhook is public and proves itself with the token
 * set in the platform's `asaasWebhookToken` setting.
 */
export const handler = httpModule({
  'GET /subscription': route({ whileExpired: true, permission: ADMIN_AREA }, async ({ auth }) =>
    subscriptionInfo(auth.companyId),
  ),

  'POST /subscription': route(
    { whileExpired: true, permission: ADMIN_AREA, body: CheckoutBody },
    async ({ auth, body }) => reply(await checkout(auth.companyId, body), 201),
  ),

  'POST /payments/asaas/webhook': route({ public: true }, async ({ headers, event }) => {
    const expected = await settingValue(PLATFORM_COMPANY_ID, 'asaasWebhookToken');
    if (!webhookTokenMatches(expected, headers['asaas-access-token'])) throw new AppError('ERR_INVALID_WEBHOOK_TOKEN');
    let payload: { event?: string; payment?: { id?: string } };
    try {
      payload = JSON.parse(
        event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString() : (event.body ?? '{}'),
      );
    } catch {
      throw new AppError('ERR_VALIDATION', 400, [{ path: [], message: 'invalid json' }]);
    }
    const ref = payload.payment?.id;
    if (!payload.event || !ASAAS_PAID_EVENTS.has(payload.event) || !ref) return { received: true, outcome: 'ignored' };
    const outcome = await confirmPayment('asaas', ref);
    if (outcome === 'unknown') log.warn('asaas webhook for an unknown payment', { ref });
    return { received: true, outcome };
  }),
});
