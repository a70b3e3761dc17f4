import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';
import { log } from '../log';
import type { Charge, ChargeRequest, PaymentAdapter } from './port';

/**
 * Asaas (https://docs.asaas.com): customers, PIX charges and their QR codes over its REST API with
 * the `access_token` header (the platform's `asaas` setting). `baseUrl` is config's ASAAS_URL.
 */
export interface AsaasOptions {
  baseUrl: string;
  apiKey: string;
  /** saves the customer id Asaas gave the company, so the next charge reuses it */
  rememberCustomer: (companyId: number, customerId: string) => Promise<void>;
  timeoutMs?: number;
}

async function call<T>(opts: AsaasOptions, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: { access_token: opts.apiKey, 'content-type': 'application/json', 'user-agent': 'inbox' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
  } catch (err) {
    log.warn('asaas unreachable', { path, error: (err as Error).message });
    throw new AppError('ERR_PAYMENT_PROVIDER', 502);
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const errors = (json as { errors?: { description?: string }[] } | undefined)?.errors?.map((e) => e.description);
    log.warn('asaas refused', { path, status: res.status, errors });
    // refused for what we sent (the company's billing data): the admin can fix it; the provider failing is a 502
    if (res.status < 500) throw new AppError('ERR_PAYMENT_REFUSED', 422, { status: res.status, errors: errors ?? [] });
    throw new AppError('ERR_PAYMENT_PROVIDER', 502, { status: res.status, errors: errors ?? [] });
  }
  return json as T;
}

export function asaasAdapter(opts: AsaasOptions): PaymentAdapter {
  return {
    name: 'asaas',
    async createCharge({ paymentId, invoice, company }: ChargeRequest): Promise<Charge> {
      let customer = company.asaasCustomerId;
      if (!customer) {
        const created = await call<{ id: string }>(opts, 'POST', '/customers', {
          name: company.billingName || company.name,
          cpfCnpj: company.document ?? undefined,
          email: company.email ?? undefined,
          mobilePhone: company.phone ?? undefined,
          postalCode: company.zipcode ?? undefined,
          externalReference: `company-${company.id}`,
        });
        customer = created.id;
        await opts.rememberCustomer(company.id, customer);
      }
      const today = new Date().toISOString().slice(0, 10);
      const due = invoice.dueDate.slice(0, 10);
      const payment = await call<{ id: string }>(opts, 'POST', '/payments', {
        customer,
        billingType: 'PIX',
        value: invoice.value,
        // biome-ignore lint/complexity/useMathMinMax: the later of two ISO dates, compared as strings
        dueDate: due > today ? due : today,
        description: invoice.detail,
        externalReference: paymentId,
      });
      const qr = await call<{ payload: string; encodedImage?: string; expirationDate?: string }>(
        opts,
        'GET',
        `/payments/${encodeURIComponent(payment.id)}/pixQrCode`,
      );
      const expires = qr.expirationDate ? Date.parse(qr.expirationDate) : Number.NaN;
      return {
        ref: payment.id,
        qrcode: qr.payload,
        image: qr.encodedImage,
        expiresInSeconds: Number.isNaN(expires) ? 24 * 3600 : Math.max(60, Math.round((expires - Date.now()) / 1000)),
      };
    },
  };
}

/** Asaas webhook events that mean the money arrived. */
export const ASAAS_PAID_EVENTS = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']);

/** Asaas sends the token configured on its webhook in `asaas-access-token`; compared in constant time. */
export function webhookTokenMatches(expected: string, given: string | undefined) {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
