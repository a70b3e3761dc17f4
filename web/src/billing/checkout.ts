import { z } from 'zod';
import type { Plan } from '#shared/schemas/accounts';
import type { CheckoutBody, InvoiceRow } from '#shared/schemas/billing';

type CheckoutInput = z.input<typeof CheckoutBody>;

/** The checkout's steps (management.md 4 "Checkout"): 0 data, 1 plan (customize), 2 review, 3 payment QR. */
export const CHECKOUT_STEPS = ['data', 'plan', 'review', 'payment'] as const;
export type CheckoutStep = 0 | 1 | 2 | 3;
/** The dialog opens on the plan step; the data step is one "back" away. */
export const FIRST_STEP: CheckoutStep = 1;
export const COUNTRIES = ['BR', 'usa'] as const;

export interface CheckoutData {
  firstName: string;
  lastName: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
  useAddressForPaymentDetails: boolean;
}

export const emptyCheckoutData = (): CheckoutData => ({
  firstName: '',
  lastName: '',
  address2: '',
  city: '',
  state: '',
  zipcode: '',
  country: 'BR',
  useAddressForPaymentDetails: false,
});

const required = z.string().trim().min(1, 'required');
/** Section 5: the data step requires firstName, address, city, zipcode and country. */
export const CheckoutDataStep = z.object({
  firstName: required,
  address2: required,
  city: required,
  zipcode: required,
  country: z.enum(COUNTRIES, { error: 'required' }),
});

/** The fields of a step that stop "next", each with its message key (`checkout.errors.<field>`). */
export function stepErrors(step: CheckoutStep, data: CheckoutData, plan: Plan | null): Record<string, string> {
  if (step === 0) {
    const parsed = CheckoutDataStep.safeParse(data);
    if (parsed.success) return {};
    const out: Record<string, string> = {};
    for (const issue of parsed.error.issues) out[String(issue.path[0])] = String(issue.path[0]);
    return out;
  }
  if (step === 1 && !plan) return { plan: 'plan' };
  return {};
}

/**
 * The checkout payload (management.md 3): the data fields, the plan as JSON of users, connections
 * and price, price, users, connections and the invoice paid. The server charges the invoice's value.
 */
export function checkoutPayload(data: CheckoutData, plan: Plan, invoice: Pick<InvoiceRow, 'id'> | null): CheckoutInput {
  return {
    ...data,
    plan: JSON.stringify({ users: plan.users, connections: plan.connections, price: plan.value, planId: plan.id }),
    price: plan.value,
    users: plan.users,
    connections: plan.connections,
    ...(invoice ? { invoiceId: invoice.id } : {}),
  };
}

/** The amount to show: the invoice's value when paying one, else the chosen plan's. */
export const checkoutTotal = (plan: Plan | null, invoice: Pick<InvoiceRow, 'value'> | null) =>
  invoice?.value ?? plan?.value ?? 0;
