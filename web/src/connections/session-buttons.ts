import { isCloudProvider, type ConnectionStatus } from '#shared/constants';

export type SessionButton = 'qrcode' | 'retry' | 'newQr' | 'disconnect' | 'connecting';

/**
 * The session buttons of a connection by its status (management.md "Connections page"):
 * qrcode -> QR; DISCONNECTED -> try again and new QR; CONNECTED, PAIRING, TIMEOUT -> disconnect;
 * OPENING -> a disabled "connecting" button with a spinner. A Cloud API connection has no session
 * (no QR code, no pairing): none; its edit asks Meta again.
 */
export function sessionButtons(status: ConnectionStatus | string, provider?: string): SessionButton[] {
  if (isCloudProvider(provider)) return [];
  switch (status) {
    case 'qrcode':
      return ['qrcode'];
    case 'DISCONNECTED':
      return ['retry', 'newQr'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
    default:
      return [];
  }
}

/** The session call each button makes (management.md section 7). */
export const SESSION_CALLS: Record<Exclude<SessionButton, 'qrcode' | 'connecting'>, 'POST' | 'PUT' | 'DELETE'> = {
  retry: 'POST',
  newQr: 'PUT',
  disconnect: 'DELETE',
};

/**
 * The QR modal closes itself once a session update for its connection arrives with an empty qrcode.
 * A health report (`{ id, health }`, no qrcode field) says nothing about the QR and keeps it open.
 */
export const qrModalShouldClose = (
  openId: number | null,
  session: { id: number; qrcode?: string | null } | undefined,
) => openId !== null && session !== undefined && session.id === openId && 'qrcode' in session && !session.qrcode;
