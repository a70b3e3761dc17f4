import { PLATFORM_COMPANY_ID } from '#shared/constants';
import { pixPayload } from './pix';
import type { PaymentAdapter } from './port';

/**
 * The local payment provider (PAYMENTS_SANDBOX=1, never on AWS): a valid PIX payload for the
 * invoice's amount, confirmed through the local stack's `POST /@payments/{paymentId}/confirm`.
 */
export const SANDBOX_PIX_KEY = 'sandbox@inbox.local';

export const sandboxAdapter: PaymentAdapter = {
  name: 'sandbox',
  async createCharge({ paymentId, invoice }) {
    return {
      ref: `sbx_${paymentId}`,
      qrcode: pixPayload({
        key: SANDBOX_PIX_KEY,
        amount: invoice.value,
        merchantName: 'Inbox Sandbox',
        merchantCity: 'Sao Paulo',
        txid: paymentId,
        description: `Fatura ${invoice.id} empresa ${invoice.companyId || PLATFORM_COMPANY_ID}`,
      }),
      expiresInSeconds: 3600,
    };
  },
};
