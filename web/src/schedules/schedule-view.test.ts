import { describe, expect, test } from 'vitest';
import { startOfWeek } from 'date-fns';
import type { Schedule } from '#shared/schemas/schedules';
import {
  contactIdParam,
  countByStatus,
  dialogTitleKey,
  filterByStatus,
  isEditable,
  scheduleLocalizer,
  statusDetail,
  toEvents,
  toLocalInput,
} from './schedule-view';

const s = (over: Partial<Schedule>): Schedule => ({
  id: 1,
  companyId: 1,
  body: 'Hello there',
  contactId: 7,
  contact: { id: 7, name: 'Ana', number: '5511999990000' },
  sendAt: '2030-01-02T15:00:00.000Z',
  sentAt: null,
  status: 'PENDENTE',
  mediaPath: null,
  mediaName: null,
  userId: 1,
  ticketId: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...over,
});

describe('schedules page rules', () => {
  test('the calendar week starts on Monday', () => {
    // the week view asks the localizer for the first day, as react-big-calendar's Week.range does
    const weekStart = (d: Date) => scheduleLocalizer.startOf(d, 'week', scheduleLocalizer.startOfWeek('pt'));
    const wednesday = new Date(2030, 0, 2, 12);
    expect(weekStart(wednesday).getDay()).toBe(1);
    expect(weekStart(wednesday)).toEqual(startOfWeek(wednesday, { weekStartsOn: 1 }));
    // a Sunday belongs to the week that began the Monday before
    expect(weekStart(new Date(2030, 0, 6, 12)).getDate()).toBe(31);
  });

  test('editable only while unsent: pending or failed, never sent nor being sent', () => {
    expect(isEditable(null)).toBe(true);
    expect(isEditable(s({}))).toBe(true);
    expect(isEditable(s({ status: 'ERRO' }))).toBe(true);
    expect(isEditable(s({ status: 'AGENDADA' }))).toBe(false);
    expect(isEditable(s({ status: 'ENVIADA', sentAt: '2030-01-02T15:00:01.000Z' }))).toBe(false);
    expect(isEditable(s({ status: 'PENDENTE', sentAt: '2030-01-02T15:00:01.000Z' }))).toBe(false);
  });

  test('the dialog title says send error when the status is ERRO', () => {
    expect(dialogTitleKey(s({ status: 'ERRO' }))).toBe('dialog.titleError');
    expect(dialogTitleKey(null)).toBe('dialog.titleAdd');
    expect(dialogTitleKey(s({}))).toBe('dialog.titleEdit');
    expect(dialogTitleKey(s({ status: 'ENVIADA', sentAt: 'x' }))).toBe('dialog.titleView');
  });

  test('lists by status with counts', () => {
    const list = [
      s({ id: 1 }),
      s({ id: 2, status: 'ERRO' }),
      s({ id: 3, status: 'ENVIADA', sentAt: 'x' }),
      s({ id: 4, status: 'CANCELADA' }),
    ];
    expect(filterByStatus(list, 'all')).toHaveLength(4);
    expect(filterByStatus(list, 'ERRO').map((x) => x.id)).toEqual([2]);
    expect(filterByStatus(list, 'CANCELADA').map((x) => x.id)).toEqual([4]);
    expect(countByStatus(list)).toEqual({ all: 4, PENDENTE: 1, AGENDADA: 0, ENVIADA: 1, ERRO: 1, CANCELADA: 1 });
  });

  test('a schedule canceled because the customer wrote first is editable (saving re-arms it) and titled canceled', () => {
    expect(isEditable(s({ status: 'CANCELADA' }))).toBe(true);
    expect(dialogTitleKey(s({ status: 'CANCELADA' }))).toBe('dialog.titleCanceled');
  });

  test('the chip and the calendar entry carry the reason: why it was canceled (with when), or why the send failed', () => {
    const at = new Date(2030, 0, 2, 9, 41).toISOString();
    expect(statusDetail(s({ status: 'CANCELADA', cancelReason: 'customerWrote', canceledAt: at }))).toEqual({
      key: 'dialog.cancelReason.customerWrote',
      values: { date: '02/01/2030 09:41' },
    });
    // an older canceled schedule without the fields still names the one reason there is, at its last change
    expect(statusDetail(s({ status: 'CANCELADA', updatedAt: at }))?.values.date).toBe('02/01/2030 09:41');
    expect(statusDetail(s({ status: 'ERRO', error: 'number not on WhatsApp' }))).toEqual({
      key: 'dialog.error',
      values: { error: 'number not on WhatsApp' },
    });
    expect(statusDetail(s({ status: 'ERRO' }))?.key).toBe('dialog.errorUnknown');
    expect(statusDetail(s({}))).toBeUndefined();
    expect(statusDetail(s({ status: 'ENVIADA', sentAt: 'x' }))).toBeUndefined();
  });

  test('events sit at sendAt, titled with the contact and the message', () => {
    const [e] = toEvents([s({})]);
    expect(e.start.toISOString()).toBe('2030-01-02T15:00:00.000Z');
    expect(e.end.getTime() - e.start.getTime()).toBe(30 * 60_000);
    expect(e.title).toBe('Ana: Hello there');
    expect(toEvents([s({ contact: null })])[0].title).toBe('#7: Hello there');
  });

  test('?contactId= is read only when it is a positive id', () => {
    expect(contactIdParam('?contactId=12')).toBe(12);
    expect(contactIdParam('?contactId=abc')).toBeNull();
    expect(contactIdParam('?contactId=-3')).toBeNull();
    expect(contactIdParam('')).toBeNull();
  });

  test('an instant becomes a datetime-local value in the browser zone', () => {
    const d = new Date(2030, 4, 6, 7, 8);
    expect(toLocalInput(d.toISOString())).toBe('2030-05-06T07:08');
  });
});
