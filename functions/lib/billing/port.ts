import type { PaymentProvider } from '#shared/schemas/billing';
import type { Invoice } from '#shared/schemas/billing';
import type { StoredCompany } from '../accounts/companies';

/** What a provider needs to charge one invoice by PIX. */
export interface ChargeRequest {
  paymentId: string;
  invoice: Invoice;
  company: StoredCompany;
}

/** A PIX charge as the provider made it. */
export interface Charge {
  /** the provider's id of the charge (webhooks name it) */
  ref: string;
  /** the PIX copy-and-paste payload */
  qrcode: string;
  /** a PNG of the QR code, base64, when the provider gives one */
  image?: string;
  expiresInSeconds: number;
}

/** The payment port: one adapter per provider (functions/lib/billing/sandbox.ts, asaas.ts). */
export interface PaymentAdapter {
  name: PaymentProvider;
  createCharge(request: ChargeRequest): Promise<Charge>;
}
