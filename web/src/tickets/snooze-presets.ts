import { SNOOZE_MAX_DAYS, type TicketSnoozeBody } from '#shared/schemas/tickets';

/** The choices of the Snooze dialog (issue 40), in display order. */
export const SNOOZE_PRESETS = ['oneHour', 'threeHours', 'tomorrow', 'nextMonday', 'custom', 'customerWrites'] as const;
export type SnoozePreset = (typeof SNOOZE_PRESETS)[number];

const HOUR = 60 * 60 * 1000;
/** The presets' hour of the day (local time) for "tomorrow" and "next Monday". */
const MORNING = 9;

const atMorning = (day: Date) => {
  const d = new Date(day);
  d.setHours(MORNING, 0, 0, 0);
  return d;
};

/** When a preset ends, in the browser's time zone; null for "custom" and "until the customer writes". */
export function presetUntil(preset: SnoozePreset, now: Date): Date | null {
  switch (preset) {
    case 'oneHour':
      return new Date(now.getTime() + HOUR);
    case 'threeHours':
      return new Date(now.getTime() + 3 * HOUR);
    case 'tomorrow': {
      const d = new Date(now);
      d.setDate(d.getDate() + 1);
      return atMorning(d);
    }
    case 'nextMonday': {
      const d = new Date(now);
      // Monday is day 1; on a Monday, the next one
      d.setDate(d.getDate() + ((1 - d.getDay() + 7) % 7 || 7));
      return atMorning(d);
    }
    default:
      return null;
  }
}

/** A `datetime-local` input's value (local time, minutes) for a date, and back. */
export function toLocalInput(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}
export function fromLocalInput(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi);
}

/** The server's rule, checked before asking: in the future and at most SNOOZE_MAX_DAYS ahead. */
export const snoozeTimeValid = (until: Date, now: Date) =>
  until.getTime() > now.getTime() && until.getTime() <= now.getTime() + SNOOZE_MAX_DAYS * 24 * HOUR;

/** The request body for a choice; null when the chosen time is not valid. */
export function snoozeBody(preset: SnoozePreset, now: Date, custom: string): TicketSnoozeBody | null {
  if (preset === 'customerWrites') return { untilCustomerWrites: true };
  const until = preset === 'custom' ? fromLocalInput(custom) : presetUntil(preset, now);
  if (!until || !snoozeTimeValid(until, now)) return null;
  return { until: until.toISOString() };
}
