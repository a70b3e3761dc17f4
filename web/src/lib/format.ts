import { format, isValid, parseISO } from 'date-fns';

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
