import { randomUUID } from 'node:crypto';
import { PLATFORM_COMPANY_ID } from '#shared/constants';
import { daysUntil } from '#shared/dates';
import {
  advanceDueDate,
  type CheckoutBody,
  type Invoice,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentResponse,
  type SubscriptionInfo,
} from '#shared/schemas/billing';
import { config } from '../config';
import { AppError } from '../errors';
import { getItem, putItem, transact, updateItem, updateTx, type TransactItem } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { publish } from '../realtime';
import { settingValue } from '../settings';
import {
  companyIndexFields,
  companyKeys,
  getCompany,
  isCompanyExpired,
  type StoredCompany,
} from '../accounts/companies';
import { getPlan } from '../accounts/plans';
import { asaasAdapter } from './asaas';
import {
  ensureInvoice,
  getInvoice,
  hasPaidInvoice,
  invoiceKeys,
  nextOpenInvoice,
  requireInvoice,
  toRow,
} from './invoices';
import { resumeCompanySessions } from './pause';
import type { PaymentAdapter } from './port';
import { sandboxAdapter } from './sandbox';

/**
 * Payments of invoices by PIX. A payment: pk `C#<cid>`, sk `PAYMENT#<paymentId>` (provider, its ref,
 * the QR payload, status); a pointer `PAYREF#<provider>#<ref>` / `PAYREF` finds it from a webhook.
 * Confirming is one transaction (invoice open -> paid, payment -> paid, company due date moved by
 * its recurrence on the due date it was read with), so a webhook delivered twice changes nothing
 * the second time.
 */
const paymentKeys = (companyId: number, paymentId: string) => ({ pk: `C#${companyId}`, sk: `PAYMENT#${paymentId}` });
const refKeys = (provider: PaymentProvider, ref: string) => ({ pk: `PAYREF#${provider}#${ref}`, sk: 'PAYREF' });

interface StoredPayment {
  paymentId: string;
  companyId: number;
  invoiceId: number;
  provider: PaymentProvider;
  ref: string;
  qrcode: string;
  image?: string;
  amount: number;
  status: 'pending' | 'paid';
  createdAt: string;
  expiresAt: string;
  paidAt?: string;
}

/** The platform's provider: Asaas when its key is set, else the sandbox on a local stack. */
async function provider(): Promise<PaymentAdapter> {
  const apiKey = await settingValue(PLATFORM_COMPANY_ID, 'asaas');
  if (apiKey) {
    return asaasAdapter({
      baseUrl: config().asaasUrl,
      apiKey,
      rememberCustomer: async (companyId, customerId) => {
        await updateItem(companyKeys(companyId), {
          set: { asaasCustomerId: customerId },
          condition: 'attribute_exists(pk)',
        });
      },
    });
  }
  if (config().paymentsSandbox) return sandboxAdapter;
  throw new AppError('ERR_PAYMENT_NOT_CONFIGURED');
}

const asResponse = (p: StoredPayment): PaymentResponse => ({
  paymentId: p.paymentId,
  invoiceId: p.invoiceId,
  provider: p.provider,
  status: p.status,
  qrcode: { qrcode: p.qrcode, ...(p.image ? { imagemQrcode: p.image } : {}) },
  valor: { original: p.amount.toFixed(2) },
  calendario: {
    criacao: p.createdAt,
    expiracao: Math.max(0, Math.round((Date.parse(p.expiresAt) - Date.parse(p.createdAt)) / 1000)),
  },
});

async function requireCompany(companyId: number): Promise<StoredCompany> {
  const company = await getCompany(companyId, { consistent: true });
  if (!company) throw new AppError('ERR_NOT_FOUND');
  return company;
}

/** The checkout's address fields become the company's billing address (card fields are never kept). */
async function keepBillingAddress(companyId: number, body: CheckoutBody) {
  const name = [body.firstName, body.lastName].filter(Boolean).join(' ');
  const set = {
    billingName: name || undefined,
    address2: body.address2 ?? undefined,
    city: body.city ?? undefined,
    state: body.state ?? undefined,
    zipcode: body.zipcode ?? undefined,
    country: body.country ?? undefined,
  };
  if (Object.values(set).some((v) => v !== undefined)) {
    await updateItem(companyKeys(companyId), { set, condition: 'attribute_exists(pk)' });
  }
}

/**
 * `POST /subscription`: a PIX charge for the invoice (or the company's open one, or its current
 * period's). A pending charge of the same invoice that has not expired is answered again instead of
 * opening another at the provider.
 */
export async function checkout(companyId: number, body: CheckoutBody): Promise<PaymentResponse> {
  await keepBillingAddress(companyId, body);
  const company = await requireCompany(companyId);
  let invoice: Invoice | undefined;
  if (body.invoiceId) invoice = await requireInvoice(companyId, body.invoiceId);
  else invoice = await nextOpenInvoice(companyId);
  if (!invoice) {
    const plan = await getPlan(company.planId);
    if (!plan) throw new AppError('ERR_NOT_FOUND');
    invoice = (await ensureInvoice(company, plan)).invoice;
  }
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');

  const pendingId = (invoice as Invoice & { paymentId?: string }).paymentId;
  if (pendingId) {
    const pending = await getItem<StoredPayment>(paymentKeys(companyId, pendingId));
    if (pending?.status === 'pending' && Date.parse(pending.expiresAt) > Date.now() + 60_000)
      return asResponse(pending);
  }

  const adapter = await provider();
  const paymentId = randomUUID().replace(/-/g, '');
  const charge = await adapter.createCharge({ paymentId, invoice, company });
  const now = new Date();
  const payment: StoredPayment = {
    paymentId,
    companyId,
    invoiceId: invoice.id,
    provider: adapter.name,
    ref: charge.ref,
    qrcode: charge.qrcode,
    ...(charge.image ? { image: charge.image } : {}),
    amount: invoice.value,
    status: 'pending',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + charge.expiresInSeconds * 1000).toISOString(),
  };
  await putItem({ ...paymentKeys(companyId, paymentId), ...payment });
  await putItem({ ...refKeys(adapter.name, charge.ref), companyId, paymentId });
  await updateItem(invoiceKeys(companyId, invoice.id), { set: { paymentId }, condition: 'attribute_exists(pk)' });
  return asResponse(payment);
}

export type ConfirmOutcome = 'confirmed' | 'already-paid' | 'unknown';

/**
 * A provider says a charge was paid: the invoice is paid, the company's due date moves by its
 * recurrence (from the due date, or from today when it had passed), its paused sessions resume
 * and the company hears `payment` CONCLUIDA. Anything already done is left as it is.
 */
export async function confirmPayment(provider: PaymentProvider, ref: string): Promise<ConfirmOutcome> {
  const pointer = await getItem<{ companyId: number; paymentId: string }>(refKeys(provider, ref), { consistent: true });
  if (!pointer) return 'unknown';
  const { companyId, paymentId } = pointer;
  const payment = await getItem<StoredPayment>(paymentKeys(companyId, paymentId), { consistent: true });
  if (!payment) return 'unknown';
  for (let attempt = 0; attempt < 3; attempt++) {
    const [invoice, company] = await Promise.all([
      getInvoice(companyId, payment.invoiceId, { consistent: true }),
      getCompany(companyId, { consistent: true }),
    ]);
    if (!invoice || !company) return 'unknown';
    if (invoice.status === 'paid') return 'already-paid';
    const now = nowIso();
    const from = company.dueDate && company.dueDate > now ? company.dueDate : now;
    const dueDate = advanceDueDate(from, company.recurrence);
    const items: TransactItem[] = [
      updateTx(invoiceKeys(companyId, invoice.id), {
        set: { status: 'paid', paidAt: now, paymentId, updatedAt: now },
        condition: '#s = :open',
        conditionNames: { '#s': 'status' },
        conditionValues: { ':open': 'open' },
      }),
      updateTx(paymentKeys(companyId, paymentId), { set: { status: 'paid', paidAt: now } }),
      updateTx(companyKeys(companyId), {
        set: { dueDate, updatedAt: now, ...dueIndex({ ...company, dueDate }) },
        condition: company.dueDate ? 'dueDate = :before' : 'attribute_not_exists(dueDate) OR dueDate = :null',
        conditionValues: company.dueDate ? { ':before': company.dueDate } : { ':null': null },
      }),
    ];
    try {
      await transact(items);
    } catch (err) {
      if (err instanceof AppError) continue; // paid meanwhile, or the due date changed: read again
      throw err;
    }
    log.info('invoice paid', { companyId, invoiceId: invoice.id, provider, dueDate });
    await resumeCompanySessions(companyId);
    const event: PaymentEvent = {
      action: 'CONCLUIDA',
      invoiceId: invoice.id,
      paymentId,
      company: { id: companyId, dueDate },
    };
    await publish(companyId, 'payment', event);
    return 'confirmed';
  }
  throw new AppError('ERR_CONFLICT');
}

const dueIndex = (company: StoredCompany) => {
  const { gsi2pk, gsi2sk } = companyIndexFields(company) as { gsi2pk?: string; gsi2sk?: string };
  return gsi2pk ? { gsi2pk, gsi2sk } : {};
};

/** The local stack's sandbox confirmation: by our payment id. */
export async function confirmSandboxPayment(paymentId: string): Promise<ConfirmOutcome> {
  return confirmPayment('sandbox', `sbx_${paymentId}`);
}

/** `GET /subscription`: trial days left, plan, the next invoice. */
export async function subscriptionInfo(companyId: number): Promise<SubscriptionInfo> {
  const company = await requireCompany(companyId);
  const [plan, paid, next] = await Promise.all([
    getPlan(company.planId),
    hasPaidInvoice(companyId),
    nextOpenInvoice(companyId),
  ]);
  const daysLeft = company.dueDate ? daysUntil(company.dueDate) : null;
  return {
    company: {
      id: company.id,
      name: company.name,
      dueDate: company.dueDate,
      recurrence: company.recurrence,
      status: company.status,
    },
    plan: plan ?? null,
    trial: !paid,
    trialDaysLeft: !paid && daysLeft !== null ? Math.max(0, daysLeft) : null,
    daysLeft,
    expired: isCompanyExpired(company),
    nextInvoice: next ? toRow(next) : null,
  };
}
