import { describe, expect, it } from 'vitest';
import type { DisconnectReason } from '#shared/schemas/whatsapp';
import { sessionReason } from './reasons';

const closed = (reason: DisconnectReason, status = 'DISCONNECTED') =>
  sessionReason({ status, health: { lastDisconnect: { reason } } });

describe('fleet session reasons', () => {
  it('a live or starting session says so', () => {
    expect(sessionReason({ status: 'CONNECTED' })).toBe('connected');
    expect(sessionReason({ status: 'OPENING' })).toBe('connecting');
    expect(sessionReason({ status: 'qrcode' })).toBe('needs_qr');
    expect(sessionReason({ status: 'TIMEOUT' })).toBe('needs_qr');
  });

  it('a closed session is explained by its last close reason', () => {
    expect(closed('loggedOut')).toBe('logged_out_on_phone');
    expect(closed('replaced')).toBe('replaced_by_other_device');
    expect(closed('replaced', 'OPENING')).toBe('replaced_by_other_device');
    expect(closed('banned')).toBe('banned');
    expect(closed('tempBanned')).toBe('banned');
    expect(closed('clientTooOld')).toBe('version_refused');
    expect(closed('multiDeviceMismatch')).toBe('needs_qr');
    expect(closed('unknown')).toBe('disconnected');
    expect(sessionReason({ status: 'DISCONNECTED' })).toBe('disconnected');
  });

  it('a wanted session whose connection is gone is named as such', () => {
    expect(sessionReason(undefined)).toBe('connection_deleted');
  });
});
