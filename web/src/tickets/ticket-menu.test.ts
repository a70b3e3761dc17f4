import { describe, expect, test } from 'vitest';
import { ticketMenuItems } from './ticket-menu';

describe('open ticket options menu (attendance.md 2.4)', () => {
  test('a plan without schedules hides Schedule', () => {
    expect(ticketMenuItems('admin', { useSchedules: false })).toEqual(['transfer', 'delete']);
    expect(ticketMenuItems('user', { useKanban: true })).toEqual(['transfer']);
  });
  test('Schedule stays hidden while the plan has not loaded', () => {
    expect(ticketMenuItems('user', null)).toEqual(['transfer']);
  });
  test('a plan with schedules shows Schedule first', () => {
    expect(ticketMenuItems('user', { useSchedules: true })).toEqual(['schedule', 'transfer']);
  });
  test('delete needs ticket-options:deleteTicket', () => {
    expect(ticketMenuItems('admin', { useSchedules: true })).toEqual(['schedule', 'transfer', 'delete']);
    expect(ticketMenuItems('supervisor', { useSchedules: true })).not.toContain('delete');
  });
  test('an open ticket offers Snooze, a snoozed one Wake, others neither (issue 40)', () => {
    expect(ticketMenuItems('user', null, { status: 'open' })).toEqual(['snooze', 'transfer']);
    expect(ticketMenuItems('user', null, { status: 'open', snooze: { until: null } })).toEqual(['wake', 'transfer']);
    expect(ticketMenuItems('user', null, { status: 'open', snooze: null })).toEqual(['snooze', 'transfer']);
    expect(ticketMenuItems('user', null, { status: 'pending' })).toEqual(['transfer']);
    expect(ticketMenuItems('user', null, { status: 'closed' })).toEqual(['transfer']);
  });
});
