import { describe, expect, test } from 'vitest';
import { CONNECTION_STATUSES } from '#shared/constants';
import { qrModalShouldClose, sessionButtons } from './session-buttons';

describe('connection session buttons by status (management.md 2)', () => {
  test.each([
    ['qrcode', ['qrcode']],
    ['DISCONNECTED', ['retry', 'newQr']],
    ['CONNECTED', ['disconnect']],
    ['PAIRING', ['disconnect']],
    ['TIMEOUT', ['disconnect']],
    ['OPENING', ['connecting']],
  ])('%s shows %j', (status, buttons) => {
    expect(sessionButtons(status)).toEqual(buttons);
  });
  test('a Cloud API connection shows no session button, whatever its status', () => {
    for (const s of CONNECTION_STATUSES) expect(sessionButtons(s, 'cloud')).toEqual([]);
    expect(sessionButtons('DISCONNECTED', 'beta')).toEqual(['retry', 'newQr']);
  });
  test('every connection status has buttons', () => {
    for (const s of CONNECTION_STATUSES) expect(sessionButtons(s).length).toBeGreaterThan(0);
  });
  test('the QR modal closes only on an empty qrcode for its own connection', () => {
    expect(qrModalShouldClose(7, { id: 7, qrcode: '' })).toBe(true);
    expect(qrModalShouldClose(7, { id: 7, qrcode: null })).toBe(true);
    expect(qrModalShouldClose(7, { id: 7, qrcode: 'abc' })).toBe(false);
    expect(qrModalShouldClose(7, { id: 8, qrcode: '' })).toBe(false);
    expect(qrModalShouldClose(null, { id: 7, qrcode: '' })).toBe(false);
    // a health report carries no qrcode: the code on screen stays
    expect(qrModalShouldClose(7, { id: 7, health: { probeMs: 12 } } as { id: number })).toBe(false);
  });
});
