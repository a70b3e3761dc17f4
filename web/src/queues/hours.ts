import { DEFAULT_SCHEDULES } from '#shared/constants';
import { HHMM } from '#shared/business-hours';

export interface DayHours {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

/** Typing into an HH:MM field (`##:##`): digits only, the colon added after the hours. */
export function maskHHMM(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/** The week to edit: the saved rows in weekday order, else the section 9 defaults (Mon-Fri 08-18, Sat 08-12, Sun closed). */
export function weekOf(saved: DayHours[] | null | undefined): DayHours[] {
  return DEFAULT_SCHEDULES.map((d) => {
    const row = saved?.find((s) => s.weekdayEn === d.weekdayEn);
    return row
      ? { weekday: d.weekday, weekdayEn: d.weekdayEn, startTime: row.startTime ?? '', endTime: row.endTime ?? '' }
      : { ...d };
  });
}

/** Indexes of the rows whose times are not valid HH:MM (an empty time means closed). */
export const invalidHours = (week: DayHours[]) =>
  week.flatMap((d, i) => ([d.startTime, d.endTime].every((t) => t === '' || HHMM.test(t)) ? [] : [i]));
