/**
 * What to do when a WhatsApp socket closes (issue 5, "Close codes"). Pure: the session manager
 * keeps the counters and applies the decision.
 * - 401 (logged out), 403 (forbidden) and 406 (banned / logged out for an unknown reason) are
 *   final: clear the stored state, DISCONNECTED.
 * - 405 (client version too old) reconnects at once, which fetches WhatsApp Web's current version
 *   again (the last fetch may have failed and left Baileys' bundled one); another 405 in a row
 *   keeps trying with a long back-off (10 to 30 minutes) and an alert, never stops the session: an
 *   outage of the version page must not stop every session that reconnects meanwhile (R7).
 * - 402 (temporary ban), 409 (bad user agent) and 411 (multi-device mismatch) stop
 *   as DISCONNECTED with the stored state kept: retrying cannot help, and an operator has to look
 *   (logged as an error, counted in the stopped-sessions metric).
 * - 515 (restart required, right after a scan) reconnects at once, twice in a row at most; from the
 *   third in a row on it backs off like any other close (a socket that keeps asking for restarts
 *   must not spin).
 * - 440 (replaced: another socket holds the session) backs off, longer each time, never loops fast;
 *   after a few in a row the session stops as DISCONNECTED.
 * - 428/408/500/503 and anything else reconnect with exponential back-off and jitter.
 * - QR codes exhausted (nobody scanned) stops as TIMEOUT.
 */
export type CloseDecision =
  | { action: 'logout'; status: 'DISCONNECTED' }
  | { action: 'reconnect'; delayMs: number; status: 'OPENING'; alert?: string }
  | { action: 'stop'; status: 'DISCONNECTED' | 'TIMEOUT'; alert?: string };

export interface CloseState {
  code: number | undefined;
  /** consecutive failed reconnects so far (reset when a session reaches CONNECTED) */
  attempt: number;
  /** consecutive 440 closes so far, this one excluded */
  replaced: number;
  /** consecutive 515 closes so far, this one excluded (reset when a session reaches CONNECTED) */
  restarts?: number;
  /** consecutive 405 closes so far, this one excluded (reset when a session reaches CONNECTED) */
  versionRefusals?: number;
  /** the session closed because its QR codes ran out */
  qrExhausted?: boolean;
  /** deliberate close (disconnect command, lease lost) */
  intentional?: boolean;
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60_000;
export const REPLACED_BASE_MS = 30_000;
export const MAX_REPLACED = 3;
/** 515 closes in a row that reconnect at once before the back-off applies */
export const FAST_RESTARTS = 2;
/** After a second 405 in a row: retries of a refused client version, 10 minutes growing to 30. */
export const VERSION_RETRY_BASE_MS = 10 * 60_000;
export const VERSION_RETRY_CAP_MS = 30 * 60_000;

/** Exponential back-off with "equal jitter": between half and all of base * 2^attempt, capped. */
export function backoff(attempt: number, base = BACKOFF_BASE_MS, cap = BACKOFF_CAP_MS, random = Math.random) {
  const full = Math.min(cap, base * 2 ** Math.max(0, attempt));
  return Math.round(full / 2 + random() * (full / 2));
}

const STOP_ALERTS: Record<number, string> = {
  402: 'WhatsApp banned this number temporarily',
  409: 'WhatsApp refuses this client (bad user agent)',
  411: 'multi-device mismatch: link the phone again',
};

export function decideClose(state: CloseState, random: () => number = Math.random): CloseDecision {
  if (state.qrExhausted) return { action: 'stop', status: 'TIMEOUT' };
  if (state.intentional) return { action: 'stop', status: 'DISCONNECTED' };
  switch (state.code) {
    case 401:
    case 403:
    case 406:
      return { action: 'logout', status: 'DISCONNECTED' };
    case 405:
      if (!state.versionRefusals) return { action: 'reconnect', delayMs: BACKOFF_BASE_MS, status: 'OPENING' };
      return {
        action: 'reconnect',
        delayMs: backoff(state.versionRefusals - 1, VERSION_RETRY_BASE_MS, VERSION_RETRY_CAP_MS, random),
        status: 'OPENING',
        alert: 'WhatsApp refuses this client version, again: trying again later',
      };
    case 402:
    case 409:
    case 411:
      return { action: 'stop', status: 'DISCONNECTED', alert: STOP_ALERTS[state.code] };
    case 515: {
      const restarts = state.restarts ?? 0;
      const delayMs =
        restarts < FAST_RESTARTS ? 0 : backoff(restarts - FAST_RESTARTS, BACKOFF_BASE_MS, BACKOFF_CAP_MS, random);
      return { action: 'reconnect', delayMs, status: 'OPENING' };
    }
    case 440:
      if (state.replaced + 1 >= MAX_REPLACED)
        return {
          action: 'stop',
          status: 'DISCONNECTED',
          alert: 'replaced by another WhatsApp Web session, again and again',
        };
      return {
        action: 'reconnect',
        delayMs: backoff(state.replaced, REPLACED_BASE_MS, BACKOFF_CAP_MS, random),
        status: 'OPENING',
      };
    default:
      return {
        action: 'reconnect',
        delayMs: backoff(state.attempt, BACKOFF_BASE_MS, BACKOFF_CAP_MS, random),
        status: 'OPENING',
      };
  }
}
