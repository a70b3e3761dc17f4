import { describe, expect, test } from 'vitest';
import { expiryWarningDays, isUsedElsewhere, tokenSessionId } from './session';
import { guardRedirect, homeFor } from './guard';

describe('session rules (attendance.md 4.1)', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  test('the expiry warning shows when fewer than 5 days remain', () => {
    expect(expiryWarningDays('2026-11-25T10:00:00Z', now)).toBe(3);
    expect(expiryWarningDays('2026-11-26T23:00:00Z', now)).toBe(4);
    expect(expiryWarningDays('2026-11-27T10:00:00Z', now)).toBeNull();
    expect(expiryWarningDays(null, now)).toBeNull();
  });

  test('an auth event for the same user with another session means "used elsewhere"', () => {
    expect(isUsedElsewhere({ user: { id: 3 }, sessionId: 'b' }, { userId: 3, sessionId: 'a' })).toBe(true);
    expect(isUsedElsewhere({ user: { id: 3 }, sessionId: 'a' }, { userId: 3, sessionId: 'a' })).toBe(false);
    expect(isUsedElsewhere({ user: { id: 4 }, sessionId: 'b' }, { userId: 3, sessionId: 'a' })).toBe(false);
  });

  test('the session id is read from the access token', () => {
    const payload = Buffer.from(JSON.stringify({ sid: 'abc-123', sub: '1' })).toString('base64url');
    expect(tokenSessionId(`h.${payload}.s`)).toBe('abc-123');
    expect(tokenSessionId('garbage')).toBeUndefined();
  });
});

describe('route guard (attendance.md 2.1)', () => {
  test('private routes send anonymous users to /login', () => {
    expect(guardRedirect('private', 'anonymous')).toBe('/login');
    expect(guardRedirect('private', 'authenticated')).toBeNull();
  });
  test('public routes send signed-in users to /, and right after login to /tickets', () => {
    expect(guardRedirect('public', 'authenticated')).toBe('/');
    expect(guardRedirect('public', 'authenticated', '/tickets')).toBe('/tickets');
    expect(guardRedirect('public', 'anonymous')).toBeNull();
  });
  test('nothing is decided while the session loads', () => {
    expect(guardRedirect('private', 'loading')).toBeNull();
  });
  test('the dashboard home is for admins; attendants land on /tickets', () => {
    expect(homeFor('admin')).toBe('/');
    expect(homeFor('user')).toBe('/tickets');
  });
});
