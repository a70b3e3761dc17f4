import { describe, expect, it } from 'vitest';
import { awayAfterMs, becameAvailable, lockHolder, mayTakeOver, statusOf } from './presence';

const NOW = 1_800_000_000;

describe('statusOf', () => {
  it('offline without a live socket (none, or only expired entries)', () => {
    expect(statusOf(undefined, undefined, NOW)).toBe('offline');
    expect(statusOf([`a@${NOW - 1}`, `b@${NOW}`], [], NOW)).toBe('offline');
  });
  it('online while any live socket is active, away when every live one is idle', () => {
    expect(statusOf([`a@${NOW + 60}`], [], NOW)).toBe('online');
    expect(statusOf([`a@${NOW + 60}`, `b@${NOW + 60}`], ['a'], NOW)).toBe('online');
    expect(statusOf([`a@${NOW + 60}`, `b@${NOW + 60}`], ['a', 'b'], NOW)).toBe('away');
  });
  it('an expired socket that is active does not keep the user online', () => {
    expect(statusOf([`a@${NOW - 5}`, `b@${NOW + 60}`], ['b'], NOW)).toBe('away');
  });
  it('connection ids holding an @ are read up to the last one', () => {
    expect(statusOf([`x@y@${NOW + 60}`], ['x@y'], NOW)).toBe('away');
  });
});

describe('becameAvailable (the assignment hook)', () => {
  it('from offline or away to online only', () => {
    expect(becameAvailable('offline', 'online')).toBe(true);
    expect(becameAvailable('away', 'online')).toBe(true);
    expect(becameAvailable('online', 'away')).toBe(false);
    expect(becameAvailable('offline', 'away')).toBe(false);
    expect(becameAvailable('online', 'online')).toBe(false);
  });
});

describe('the soft lock', () => {
  it('an open ticket is held by its assignee against everyone else', () => {
    expect(lockHolder({ status: 'open', userId: 3 }, 3)).toBeNull();
    expect(lockHolder({ status: 'open', userId: 3 }, 4)).toBe(3);
  });
  it('pending and closed tickets, and open ones without an assignee, lock nobody out', () => {
    expect(lockHolder({ status: 'pending', userId: null }, 4)).toBeNull();
    expect(lockHolder({ status: 'closed', userId: 3 }, 4)).toBeNull();
    expect(lockHolder({ status: 'open', userId: null }, 4)).toBeNull();
  });
  it('admins take over; attendants only with takeoverByAnyUser enabled', () => {
    expect(mayTakeOver(true, 'disabled')).toBe(true);
    expect(mayTakeOver(false, 'disabled')).toBe(false);
    expect(mayTakeOver(false, undefined)).toBe(false);
    expect(mayTakeOver(false, 'enabled')).toBe(true);
  });
});

describe('awayAfterMs', () => {
  it('minutes of the setting, 5 when unreadable', () => {
    expect(awayAfterMs('10')).toBe(600_000);
    expect(awayAfterMs(undefined)).toBe(300_000);
    expect(awayAfterMs('zero')).toBe(300_000);
    expect(awayAfterMs('0')).toBe(300_000);
  });
});
