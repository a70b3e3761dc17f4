import type { DisconnectReason } from '#shared/schemas/whatsapp';
import type { SessionReason } from '#shared/schemas/fleet';

/** What the connection item tells about its session: its status and the runner's last close reason. */
export interface StoredSessionState {
  status?: string;
  health?: { lastDisconnect?: { reason: DisconnectReason } };
}

/** Close reasons (session-runner/src/health.ts, from the close codes of close-policy.ts) in operator terms. */
const CLOSE_REASONS: Partial<Record<DisconnectReason, SessionReason>> = {
  loggedOut: 'logged_out_on_phone',
  forbidden: 'logged_out_on_phone',
  banned: 'banned',
  tempBanned: 'banned',
  clientTooOld: 'version_refused',
  badUserAgent: 'version_refused',
  multiDeviceMismatch: 'needs_qr',
  replaced: 'replaced_by_other_device',
  qrExpired: 'needs_qr',
  connectionLost: 'connection_lost',
  timedOut: 'connection_lost',
  silent: 'connection_lost',
};

/** Why a wanted session is where it is; `undefined` state means its connection item is gone. */
export function sessionReason(state: StoredSessionState | undefined): SessionReason {
  if (!state) return 'connection_deleted';
  switch (state.status) {
    case 'CONNECTED':
      return 'connected';
    case 'qrcode':
    case 'PAIRING':
    case 'TIMEOUT':
      return 'needs_qr';
    case 'OPENING': {
      // reconnecting after a close: the close says why (a replaced session backs off in OPENING)
      const last = state.health?.lastDisconnect?.reason;
      return last === 'replaced' ? 'replaced_by_other_device' : 'connecting';
    }
    default: {
      const last = state.health?.lastDisconnect?.reason;
      return (last && CLOSE_REASONS[last]) || 'disconnected';
    }
  }
}
