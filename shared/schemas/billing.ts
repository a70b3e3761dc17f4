import { z } from 'zod';
import { RECURRENCES, RECURRENCE_MONTHS } from '../constants';
import { addMonths, calendarDaysUntil, utcDay } from '../dates';
import { PLAN_FEATURES } from '../plans';
import { Company, Plan } from './accounts';
import { MSG, bodyId, bodyInt, cursorQuery, email } from './common';

/**
 * Running the platform (management.md "Settings page", "Invoices and checkout", sections 3, 4 and 7):
 * companies, plans and helps for the super user; invoices, checkout and subscription for a company.
 * Every request and response body of those routes is declared here once, for the server and the web.
 */

// ---------------------------------------------------------------------------------------------
// Dates

/** The day the company's due date falls on, `YYYY-MM-DD` (UTC), or null. */
export const dueDay = (iso: string | null | undefined) => (iso ? utcDay(iso) : null);

/**
 * The "Expire" button and a confirmed payment: the due date moved by the company's recurrence,
 * clamped to the last day of a shorter month (30 Nov + 3 months = 28 Feb).
 */
export const advanceDueDate = (from: string, recurrence: (typeof RECURRENCES)[number]) =>
  addMonths(from, RECURRENCE_MONTHS[recurrence]);

/**
 * Company due-date row colours (management.md 4): yellow 5 days away, orange from 4 days before to
 * 3 days after, red from 4 days past; none otherwise.
 */
export type DueColour = 'yellow' | 'orange' | 'red' | null;
export function dueDateColour(dueDate: string | null | undefined, now = new Date()): DueColour {
  if (!dueDate) return null;
  const days = calendarDaysUntil(dueDate, now);
  if (days === 5) return 'yellow';
  if (days <= 4 && days >= -3) return 'orange';
  if (days <= -4) return 'red';
  return null;
}

/** A dueDate from a form: empty or invalid is null (management.md 5). */
const formDueDate = z
  .union([z.string(), z.null()])
  .transform((v) => {
    if (!v?.trim()) return null;
    const t = Date.parse(v.trim());
    return Number.isNaN(t) ? null : new Date(t).toISOString();
  })
  .optional();

const formBool = z
  .union([z.boolean(), z.enum(['true', 'false', 't', 'f'])])
  .transform((v) => v === true || v === 'true' || v === 't');

// ---------------------------------------------------------------------------------------------
// Plans

const limit = bodyInt.pipe(z.number().int().min(0, MSG.invalid).max(100_000, MSG.long));
const money = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d+([.,]\d{1,2})?$/)
        .transform((v) => Number(v.replace(',', '.'))),
    ],
    {
      error: MSG.invalid,
    },
  )
  .pipe(z.number().min(0, MSG.invalid).max(1_000_000, MSG.long))
  .transform((v) => Math.round(v * 100) / 100);

const planFlags = Object.fromEntries(PLAN_FEATURES.map((f) => [f, formBool.optional()])) as Record<
  (typeof PLAN_FEATURES)[number],
  z.ZodOptional<typeof formBool>
>;

/** `POST /plans` (super): the name is required and unique; unset flags are false. */
export const PlanBody = z.object({
  name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.long),
  users: limit,
  connections: limit,
  queues: limit,
  value: money,
  /** issue 39: AI model calls per month for each company on the plan; 0 (or empty): unlimited */
  aiCallsPerMonth: z
    .union([
      z.literal('').transform(() => 0),
      bodyInt.pipe(z.number().int().min(0, MSG.invalid).max(100_000_000, MSG.long)),
    ])
    .optional(),
  ...planFlags,
});
/** `PUT /plans/{id}` (super): any subset. */
export const PlanUpdateBody = PlanBody.partial();
export type PlanBody = z.infer<typeof PlanBody>;

// ---------------------------------------------------------------------------------------------
// Companies

const optionalText = (max: number) =>
  z
    .union([z.string(), z.null()])
    .transform((v) => (v ?? '').trim() || null)
    .pipe(z.string().max(max, MSG.long).nullable())
    .optional();

/** Billing name and address of a company (the checkout's data step fills the same fields). */
export const BillingFields = z.object({
  billingName: optionalText(100),
  /** CPF or CNPJ digits; payment providers ask for it */
  document: z
    .union([z.string(), z.null()])
    .transform((v) => (v ?? '').replace(/\D/g, '') || null)
    .pipe(
      z
        .string()
        .regex(/^(\d{11}|\d{14})$/, MSG.invalid)
        .nullable(),
    )
    .optional(),
  address: optionalText(200),
  address2: optionalText(200),
  city: optionalText(100),
  state: optionalText(50),
  zipcode: optionalText(20),
  country: optionalText(50),
});

/** `POST /companies` (super). With a password, the company's first admin is created with its e-mail. */
export const CompanyBody = z
  .object({
    name: z.string({ error: MSG.required }).trim().min(2, MSG.short).max(100, MSG.long),
    email: email.optional().or(z.literal('').transform(() => undefined)),
    phone: z
      .union([z.string(), z.null()])
      .transform((v) => (v ?? '').replace(/\D/g, '') || null)
      .pipe(z.string().max(13, MSG.long).nullable())
      .optional(),
    planId: bodyId,
    status: formBool.optional(),
    campaignsEnabled: formBool.optional(),
    dueDate: formDueDate,
    recurrence: z.enum(RECURRENCES, { error: MSG.invalid }).optional(),
    password: z.string().min(8, MSG.short).max(50, MSG.long).optional(),
  })
  .extend(BillingFields.shape);
/** `PUT /companies/{id}` (super): any subset; the password is not changed here. */
export const CompanyUpdateBody = CompanyBody.omit({ password: true }).partial();

/** `GET /companies` (super): paged by cursor, searched by name or e-mail. */
export const CompaniesQuery = cursorQuery.extend({ searchParam: z.string().trim().toLowerCase().max(100).optional() });

/** A company as the super user's list shows it: the stored company, its plan name and row colour. */
export const CompanyRow = Company.extend({
  plan: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** management.md 4 "Company due-date row colours", computed when listed */
  dueColour: z.enum(['yellow', 'orange', 'red']).nullable(),
  /** the due date has passed: admins are in a restricted session, attendants cannot sign in */
  expired: z.boolean(),
});
export type CompanyRow = z.infer<typeof CompanyRow>;
export const CompaniesPage = z.object({
  companies: z.array(CompanyRow),
  hasMore: z.boolean(),
  cursor: z.string().optional(),
});

/** `DELETE /companies/{id}` answers 202: the data goes in the background. */
export const CompanyDeleted = z.object({ id: z.number(), deleting: z.literal(true) });

// ---------------------------------------------------------------------------------------------
// Helps

/** `POST /helps`, `PUT /helps/{id}` (super); `video` is the video code. */
export const HelpBody = z.object({
  title: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(200, MSG.long),
  description: z.string().trim().max(5000, MSG.long).optional().default(''),
  video: z.string().trim().max(200, MSG.long).optional().default(''),
});
export const HelpUpdateBody = z.object({
  title: HelpBody.shape.title.optional(),
  description: z.string().trim().max(5000, MSG.long).optional(),
  video: z.string().trim().max(200, MSG.long).optional(),
});
export const Help = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Help = z.infer<typeof Help>;
/** `GET /helps` and `GET /helps/list`: every help, newest first (`GET /helps` also takes a search). */
export const HelpsQuery = z.object({ searchParam: z.string().trim().toLowerCase().max(100).optional() });

// ---------------------------------------------------------------------------------------------
// Invoices

export const INVOICE_STATUSES = ['open', 'paid'] as const;
/** management.md 4 "Invoice display status": expired is due before today and not paid (red row). */
export const INVOICE_DISPLAY_STATUSES = ['paid', 'expired', 'open'] as const;
export type InvoiceDisplayStatus = (typeof INVOICE_DISPLAY_STATUSES)[number];

export const Invoice = z.object({
  id: z.number(),
  companyId: z.number(),
  /** names the plan and the period, e.g. "Plano 1 - 05/03/2026 a 05/04/2026" */
  detail: z.string(),
  value: z.number(),
  dueDate: z.string(),
  /** the period the invoice pays: from its due date to the next one */
  periodStart: z.string(),
  periodEnd: z.string(),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;

export function invoiceDisplayStatus(
  invoice: Pick<Invoice, 'status' | 'dueDate'>,
  now = new Date(),
): InvoiceDisplayStatus {
  if (invoice.status === 'paid') return 'paid';
  return utcDay(invoice.dueDate) < utcDay(now) ? 'expired' : 'open';
}

export const InvoiceRow = Invoice.extend({ displayStatus: z.enum(INVOICE_DISPLAY_STATUSES) });
export type InvoiceRow = z.infer<typeof InvoiceRow>;

/** `GET /invoices/all` (and `GET /invoices`): the company's invoices, newest first, paged for infinite scroll. */
export const InvoicesQuery = cursorQuery.extend({ searchParam: z.string().trim().toLowerCase().max(100).optional() });
export const InvoicesPage = z.object({
  invoices: z.array(InvoiceRow),
  hasMore: z.boolean(),
  cursor: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------
// Checkout and payment

/** The checkout's plan field: JSON of users, connections and price (management.md 3). */
const checkoutPlan = z
  .union([
    z.string().transform((v, ctx) => {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: MSG.invalid });
        return z.NEVER;
      }
    }),
    z.object({}).passthrough(),
  ])
  .pipe(
    z
      .object({
        users: z.coerce.number().optional(),
        connections: z.coerce.number().optional(),
        price: z.coerce.number().optional(),
        planId: z.coerce.number().optional(),
      })
      .passthrough(),
  );

/**
 * `POST /subscription`: the checkout payload. Only `invoiceId` decides what is charged (the amount
 * is the invoice's, never the browser's price); without it the company's open invoice is charged
 * (created for the current period when there is none). The address fields are kept as the
 * company's billing address; card fields are accepted from the form and never stored.
 */
export const CheckoutBody = z.object({
  invoiceId: bodyId.optional(),
  firstName: optionalText(100),
  lastName: optionalText(100),
  address2: optionalText(200),
  city: optionalText(100),
  state: optionalText(50),
  zipcode: optionalText(20),
  country: optionalText(50),
  useAddressForPaymentDetails: formBool.optional(),
  nameOnCard: z.string().max(100).optional(),
  cardNumber: z.string().max(30).optional(),
  cvv: z.string().max(4).optional(),
  plan: checkoutPlan.optional(),
  price: z.union([z.number(), z.string()]).optional(),
  users: z.union([z.number(), z.string()]).optional(),
  connections: z.union([z.number(), z.string()]).optional(),
});
export type CheckoutBody = z.infer<typeof CheckoutBody>;

export const PAYMENT_PROVIDERS = ['sandbox', 'asaas'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/**
 * The payment answer of `POST /subscription` (PIX charge): `qrcode.qrcode` is the copy-and-paste
 * EMV payload the QR code encodes, `valor.original` the amount as "49.00".
 */
export const PaymentResponse = z.object({
  paymentId: z.string(),
  invoiceId: z.number(),
  provider: z.enum(PAYMENT_PROVIDERS),
  status: z.enum(['pending', 'paid']),
  qrcode: z.object({ qrcode: z.string(), imagemQrcode: z.string().optional() }),
  valor: z.object({ original: z.string() }),
  calendario: z.object({ criacao: z.string(), expiracao: z.number() }),
});
export type PaymentResponse = z.infer<typeof PaymentResponse>;

/** Realtime `payment` (to the paying company only): the browser shows the renewal toast with dueDate. */
export const PaymentEvent = z.object({
  action: z.literal('CONCLUIDA'),
  invoiceId: z.number(),
  paymentId: z.string(),
  company: z.object({ id: z.number(), dueDate: z.string() }),
});
export type PaymentEvent = z.infer<typeof PaymentEvent>;

// ---------------------------------------------------------------------------------------------
// Subscription page

/** `GET /subscription`: what /subscription shows (management.md 2: days left in the trial). */
export const SubscriptionInfo = z.object({
  company: z.object({
    id: z.number(),
    name: z.string(),
    dueDate: z.string().nullable(),
    recurrence: z.enum(RECURRENCES),
    status: z.boolean(),
  }),
  plan: Plan.nullable(),
  /** no invoice paid yet: the company is in its trial */
  trial: z.boolean(),
  /** days until the due date while in the trial (0 when it ended), else null */
  trialDaysLeft: z.number().nullable(),
  /** days until the due date (negative once past) */
  daysLeft: z.number().nullable(),
  /** the due date has passed: the session is restricted to invoices and checkout */
  expired: z.boolean(),
  /** the open invoice to pay next, if any */
  nextInvoice: InvoiceRow.nullable(),
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfo>;
