import { addMinutes, format, getDay, parse, startOfWeek } from 'date-fns';
import { dateFnsLocalizer } from 'react-big-calendar';
import { enUS, es, ptBR } from 'date-fns/locale';
import type { Schedule, ScheduleStatus } from '#shared/schemas/schedules';
import { formatDateTime } from '../lib/format';

/** The calendar's week starts on Monday (management.md "Schedules"). */
export const WEEK_STARTS_ON = 1 as const;

/** A calendar localizer over date-fns (the date library the web app already uses), weeks from Monday. */
export const scheduleLocalizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (date: Date, opts?: { locale?: Locale }) => startOfWeek(date, { ...opts, weekStartsOn: WEEK_STARTS_ON }),
  getDay,
  locales: { pt: ptBR, en: enUS, es },
});
type Locale = typeof ptBR;

/** The status tabs: every schedule, then one per status. */
export type StatusFilter = 'all' | ScheduleStatus;
export const STATUS_FILTERS: StatusFilter[] = ['all', 'PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO', 'CANCELADA'];

export const filterByStatus = (list: Schedule[], status: StatusFilter) =>
  status === 'all' ? list : list.filter((s) => s.status === status);

export function countByStatus(list: Schedule[]): Record<StatusFilter, number> {
  const counts: Record<StatusFilter, number> = {
    all: list.length,
    PENDENTE: 0,
    AGENDADA: 0,
    ENVIADA: 0,
    ERRO: 0,
    CANCELADA: 0,
  };
  for (const s of list) counts[s.status] += 1;
  return counts;
}

/**
 * A schedule can be edited (or deleted) only while sentAt is empty ("Schedule", section 4); one
 * being handed to the sender (AGENDADA) is read-only too, as the server refuses it.
 */
export const isEditable = (s: Pick<Schedule, 'sentAt' | 'status'> | null | undefined) =>
  !s || (!s.sentAt && (s.status === 'PENDENTE' || s.status === 'ERRO' || s.status === 'CANCELADA'));

/** The dialog title: "send error" when the status is ERRO (section 4), else add, edit or view. */
export function dialogTitleKey(s: Pick<Schedule, 'sentAt' | 'status'> | null | undefined) {
  if (!s) return 'dialog.titleAdd';
  if (s.status === 'ERRO') return 'dialog.titleError';
  if (s.status === 'CANCELADA') return 'dialog.titleCanceled';
  return isEditable(s) ? 'dialog.titleEdit' : 'dialog.titleView';
}

/**
 * What a schedule says besides its status, on the list chip, the calendar entry and in the dialog:
 * why the send failed (ERRO) or why it was not sent (CANCELADA). A translation key of the
 * `schedules` namespace and its values; undefined for the other statuses.
 */
export function statusDetail(
  s: Pick<Schedule, 'status' | 'error' | 'cancelReason' | 'canceledAt' | 'updatedAt'>,
): { key: string; values: Record<string, string> } | undefined {
  if (s.status === 'ERRO')
    return s.error ? { key: 'dialog.error', values: { error: s.error } } : { key: 'dialog.errorUnknown', values: {} };
  if (s.status === 'CANCELADA')
    return {
      key: `dialog.cancelReason.${s.cancelReason ?? 'customerWrote'}`,
      values: { date: formatDateTime(s.canceledAt ?? s.updatedAt) },
    };
  return undefined;
}

/** One calendar event per schedule, half an hour long so it is visible in the week view. */
export interface ScheduleEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  resource: Schedule;
}
export const toEvents = (list: Schedule[]): ScheduleEvent[] =>
  list.map((s) => {
    const start = new Date(s.sendAt);
    return {
      id: s.id,
      title: `${s.contact?.name ?? `#${s.contactId}`}: ${s.body}`,
      start,
      end: addMinutes(start, 30),
      resource: s,
    };
  });

/** Status colours (MUI palette keys), the same on the calendar and in the list. */
export const STATUS_COLOR: Record<ScheduleStatus, 'info' | 'warning' | 'success' | 'error'> = {
  PENDENTE: 'info',
  AGENDADA: 'warning',
  ENVIADA: 'success',
  ERRO: 'error',
  CANCELADA: 'warning',
};

/** The `?contactId=` of the page's address, when it is a positive id (it opens the add dialog). */
export function contactIdParam(search: string): number | null {
  const raw = new URLSearchParams(search).get('contactId');
  const id = raw ? Number(raw) : Number.NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** An ISO instant as a `datetime-local` value in the browser's zone. */
export const toLocalInput = (iso: string) => format(new Date(iso), "yyyy-MM-dd'T'HH:mm");

/** The variables a schedule's message may use (management.md 3: firstName, name, ms, protocol, hora). */
export const SCHEDULE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'hora'] as const;
