import { format, isValid, parseISO } from 'date-fns';
import type { Company } from '#shared/schemas/accounts';
import { CompanyBody } from '#shared/schemas/billing';

/**
 * The recurrences the form offers: exactly those the server accepts on a company, read from its
 * schema; billing moves the due date and the invoice period by each one's RECURRENCE_MONTHS.
 */
export const RECURRENCE_OPTIONS = CompanyBody.shape.recurrence.unwrap().options;
export type Recurrence = (typeof RECURRENCE_OPTIONS)[number];

/** The company form's values: text inputs as strings, the due date as the stored ISO instant. */
export interface CompanyForm {
  name: string;
  email: string;
  phone: string;
  planId: number | '';
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string;
  recurrence: Recurrence;
  password: string;
  billingName: string;
  document: string;
  address: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

export const emptyCompanyForm = (): CompanyForm => ({
  name: '',
  email: '',
  phone: '',
  planId: '',
  status: true,
  campaignsEnabled: true,
  dueDate: '',
  recurrence: 'MENSAL',
  password: '',
  billingName: '',
  document: '',
  address: '',
  address2: '',
  city: '',
  state: '',
  zipcode: '',
  country: '',
});

export const companyForm = (c: Company): CompanyForm => ({
  ...emptyCompanyForm(),
  name: c.name,
  email: c.email ?? '',
  phone: c.phone ?? '',
  planId: c.planId,
  status: c.status,
  campaignsEnabled: c.campaignsEnabled ?? false,
  dueDate: c.dueDate ?? '',
  recurrence: c.recurrence,
  billingName: c.billingName ?? '',
  document: c.document ?? '',
  address: c.address ?? '',
  address2: c.address2 ?? '',
  city: c.city ?? '',
  state: c.state ?? '',
  zipcode: c.zipcode ?? '',
  country: c.country ?? '',
});

/** The day a due date shows in the date input (local), '' when there is none. */
export function dueDay(iso: string): string {
  const d = iso ? parseISO(iso) : null;
  return d && isValid(d) ? format(d, 'yyyy-MM-dd') : '';
}

/**
 * A day picked in the date input as the stored instant: the same time of day as before when there
 * was a due date (a trial's time stays), else the end of that day here. Empty stays empty (sent as
 * null, management.md 5).
 */
export function withDay(previousIso: string, day: string): string {
  if (!day) return '';
  const before = previousIso ? parseISO(previousIso) : null;
  const time = before && isValid(before) ? format(before, 'HH:mm:ss.SSS') : '23:59:59.000';
  const next = parseISO(`${day}T${time}`);
  return isValid(next) ? next.toISOString() : '';
}
