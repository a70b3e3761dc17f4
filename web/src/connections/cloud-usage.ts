import type { CloudUsageMonth } from '#shared/schemas/whatsapp-cloud';

/**
 * A Cloud API number's messaging limit and priced messages as the Connections page shows them
 * (loaded with the page, not with the menu).
 */

/** Meta's messaging limit of a new business portfolio, until the number tells its own. */
export const DEFAULT_MESSAGING_LIMIT = 250;

export type LimitView = { kind: 'unlimited' } | { kind: 'count' | 'default'; customers: number };

/** The messaging limit as shown: -1 unlimited, unknown as Meta's default for a new business. */
export function limitView(limit: number | undefined): LimitView {
  if (limit === -1) return { kind: 'unlimited' };
  if (limit === undefined || limit < 0) return { kind: 'default', customers: DEFAULT_MESSAGING_LIMIT };
  return { kind: 'count', customers: limit };
}

/** A count in the reader's language (2.000 in pt, 2,000 in en). */
export const formatCount = (n: number, language: string) => new Intl.NumberFormat(language).format(n);

/** "Março de 2027" from `2027-03` (the month is UTC, as the server counts it). */
export function monthLabel(month: string, language: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return month;
  const label = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
  return label.charAt(0).toLocaleUpperCase(language) + label.slice(1);
}

/** Meta's categories in the order its pricing lists them; others follow by name. */
const CATEGORY_ORDER = [
  'marketing',
  'marketing_lite',
  'utility',
  'authentication',
  'authentication_international',
  'service',
  'referral_conversion',
];
const rank = (category: string) => {
  const i = CATEGORY_ORDER.indexOf(category);
  return i === -1 ? CATEGORY_ORDER.length : i;
};

export interface UsageRow {
  category: string;
  charged: number;
  free: number;
}

/** One month's rows: every category it has, charged or free, in Meta's order. */
export function usageRows(month: Pick<CloudUsageMonth, 'charged' | 'free'>): UsageRow[] {
  const categories = [...new Set([...Object.keys(month.charged), ...Object.keys(month.free)])];
  return categories
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((category) => ({ category, charged: month.charged[category] ?? 0, free: month.free[category] ?? 0 }));
}
