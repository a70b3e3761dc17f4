/**
 * The Cloud API's customer service window (issue 36): a business may send free-form messages to a
 * customer only within 24 hours of that customer's last message to the number; outside it, Meta
 * accepts only approved templates (and refuses the rest with its error 131047). A ticket keeps the
 * time of the customer's last message (`customerMessageAt`), from which the window follows.
 */
export const CLOUD_WINDOW_HOURS = 24;
const WINDOW_MS = CLOUD_WINDOW_HOURS * 3_600_000;

/** When the window of a customer whose last message came at `customerMessageAt` closes (null: never opened). */
export const cloudWindowEndsAt = (customerMessageAt: string | null | undefined): string | null => {
  const at = customerMessageAt ? Date.parse(customerMessageAt) : Number.NaN;
  return Number.isNaN(at) ? null : new Date(at + WINDOW_MS).toISOString();
};

/** Milliseconds the window has left at `now` (0 once closed or never opened). */
export const cloudWindowLeftMs = (customerMessageAt: string | null | undefined, now: number) => {
  const ends = cloudWindowEndsAt(customerMessageAt);
  return ends ? Math.max(0, Date.parse(ends) - now) : 0;
};
