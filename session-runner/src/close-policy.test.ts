import { describe, it, expect } from 'vitest';
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoff,
  decideClose,
  FAST_RESTARTS,
  MAX_REPLACED,
  REPLACED_BASE_MS,
  VERSION_RETRY_BASE_MS,
  VERSION_RETRY_CAP_MS,
} from './close-policy';

const base = { attempt: 0, replaced: 0 };

describe('close-code policy', () => {
  it('401 (logged out) and 403 are final: clear the state, DISCONNECTED', () => {
    expect(decideClose({ ...base, code: 401 })).toEqual({ action: 'logout', status: 'DISCONNECTED' });
    expect(decideClose({ ...base, code: 403 })).toEqual({ action: 'logout', status: 'DISCONNECTED' });
  });

  it('406 (banned or an unknown logout) is final like 401: clear the state, DISCONNECTED', () => {
    expect(decideClose({ ...base, code: 406 })).toEqual({ action: 'logout', status: 'DISCONNECTED' });
  });

  it('R7: a first 405 (client too old) reconnects at once, fetching the current version again; later ones keep trying every 10 to 30 minutes with an alert, never stop', () => {
    expect(decideClose({ ...base, code: 405 })).toMatchObject({ action: 'reconnect', delayMs: BACKOFF_BASE_MS });
    const second = decideClose({ ...base, code: 405, versionRefusals: 1 }, () => 0);
    expect(second).toMatchObject({ action: 'reconnect', status: 'OPENING', alert: expect.any(String) });
    expect(second.action === 'reconnect' && second.delayMs).toBe(VERSION_RETRY_BASE_MS / 2);
    const later = decideClose({ ...base, code: 405, versionRefusals: 9 }, () => 1);
    expect(later.action === 'reconnect' && later.delayMs).toBe(VERSION_RETRY_CAP_MS);
  });

  it('402 (temporary ban), 409 and 411 stop with an alert instead of retrying forever', () => {
    for (const code of [402, 409, 411]) {
      const decision = decideClose({ ...base, code, attempt: 2, versionRefusals: 1 });
      expect(decision).toMatchObject({ action: 'stop', status: 'DISCONNECTED' });
      expect(decision.action === 'stop' && decision.alert).toBeTruthy();
    }
  });

  it('515 right after a scan is a normal restart: reconnect at once', () => {
    expect(decideClose({ ...base, code: 515, attempt: 4 })).toEqual({
      action: 'reconnect',
      delayMs: 0,
      status: 'OPENING',
    });
  });

  it('N8: a 515 right after two others in a row backs off, longer each time, instead of spinning', () => {
    const closeAfter = (restarts: number) => decideClose({ ...base, code: 515, restarts }, () => 0);
    expect(closeAfter(0)).toMatchObject({ action: 'reconnect', delayMs: 0 });
    expect(closeAfter(FAST_RESTARTS - 1)).toMatchObject({ action: 'reconnect', delayMs: 0 });
    expect(closeAfter(FAST_RESTARTS)).toEqual({ action: 'reconnect', delayMs: 500, status: 'OPENING' });
    expect(closeAfter(FAST_RESTARTS + 1)).toEqual({ action: 'reconnect', delayMs: 1000, status: 'OPENING' });
    expect(closeAfter(FAST_RESTARTS + 20)).toEqual({
      action: 'reconnect',
      delayMs: BACKOFF_CAP_MS / 2,
      status: 'OPENING',
    });
  });

  it('428/408/500/503 reconnect with exponential back-off and jitter', () => {
    for (const code of [428, 408, 500, 503]) {
      const low = decideClose({ ...base, code, attempt: 3 }, () => 0);
      const high = decideClose({ ...base, code, attempt: 3 }, () => 1);
      expect(low).toEqual({ action: 'reconnect', delayMs: 4000, status: 'OPENING' });
      expect(high).toEqual({ action: 'reconnect', delayMs: 8000, status: 'OPENING' });
    }
    const first = decideClose({ ...base, code: 428, attempt: 0 }, () => 0.5);
    const later = decideClose({ ...base, code: 428, attempt: 5 }, () => 0.5);
    expect(first.action === 'reconnect' && later.action === 'reconnect' && later.delayMs > first.delayMs).toBe(true);
  });

  it('back-off is capped and jitter stays within half to all of the window', () => {
    expect(backoff(50, 1000, BACKOFF_CAP_MS, () => 1)).toBe(BACKOFF_CAP_MS);
    for (let i = 0; i < 20; i++) {
      const d = backoff(2, 1000);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });

  it('repeated 440 (replaced) backs off long, never loops, and stops after a few', () => {
    const first = decideClose({ ...base, code: 440, replaced: 0 }, () => 0);
    expect(first).toEqual({ action: 'reconnect', delayMs: REPLACED_BASE_MS / 2, status: 'OPENING' });
    const second = decideClose({ ...base, code: 440, replaced: 1 }, () => 0);
    expect(second.action === 'reconnect' && second.delayMs).toBe(REPLACED_BASE_MS);
    expect(decideClose({ ...base, code: 440, replaced: MAX_REPLACED - 1 })).toEqual({
      action: 'stop',
      status: 'DISCONNECTED',
      alert: expect.any(String),
    });
  });

  it('QR retries exhausted -> TIMEOUT; a deliberate close -> DISCONNECTED without reconnecting', () => {
    expect(decideClose({ ...base, code: 408, qrExhausted: true })).toEqual({ action: 'stop', status: 'TIMEOUT' });
    expect(decideClose({ ...base, code: 428, intentional: true })).toEqual({ action: 'stop', status: 'DISCONNECTED' });
  });
});
