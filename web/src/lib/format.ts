import { isValid, parseISO } from 'date-fns';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `d` (local time) in a numeric pattern of the tokens yyyy, yy, MM, dd, HH and mm, as date-fns'
 * `format` writes them: its formatter table and default locale would ride along with every page that
 * shows a time (issue 25, the ticket page's weight). Any other character is kept as is.
 */
export function format(d: Date, pattern: string): string {
  const parts: Record<string, string> = {
    yyyy: String(d.getFullYear()).padStart(4, '0'),
    yy: pad(d.getFullYear() % 100),
    MM: pad(d.getMonth() + 1),
    dd: pad(d.getDate()),
    HH: pad(d.getHours()),
    mm: pad(d.getMinutes()),
  };
  return pattern.replace(/yyyy|yy|MM|dd|HH|mm/g, (token) => parts[token]!);
}

/** Dates per attendance.md section 9: DD/MM/YYYY and HH:mm, whatever the language. */
const toDate = (value: string | number | Date | null | undefined) => {
  if (value === null || value === undefined || value === '') return null;
  const d = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(d) ? d : null;
};

export const formatDate = (value: string | number | Date | null | undefined) => {
  const d = toDate(value);
  return d ? format(d, 'dd/MM/yyyy') : '';
};
export const formatTime = (value: string | number | Date | null | undefined) => {
  const d = toDate(value);
  return d ? format(d, 'HH:mm') : '';
};
export const formatDateTime = (value: string | number | Date | null | undefined) => {
  const d = toDate(value);
  return d ? format(d, 'dd/MM/yyyy HH:mm') : '';
};
/** Connection last update: dd/MM/yy HH:mm. */
export const formatShortDateTime = (value: string | number | Date | null | undefined) => {
  const d = toDate(value);
  return d ? format(d, 'dd/MM/yy HH:mm') : '';
};
/** Ticket list rows: the time today, the date otherwise. */
export const formatListStamp = (value: string | null | undefined, now = new Date()) => {
  const d = toDate(value);
  if (!d) return '';
  return format(d, 'yyyy-MM-dd') === format(now, 'yyyy-MM-dd') ? format(d, 'HH:mm') : format(d, 'dd/MM/yyyy');
};

export const formatBRL = (value: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);
