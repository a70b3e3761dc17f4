import type { PushPreferences } from '#shared/schemas/push';

/** What this browser allows: push at all, and what the user said to the permission prompt. */
export type PushSupport = 'unsupported' | 'denied' | 'default' | 'granted';

export interface BrowserPush {
  serviceWorker: boolean;
  pushManager: boolean;
  notification: boolean;
  permission?: string;
}

/** Push needs a service worker, the Push API and notifications; a denied permission ends it too. */
export function pushSupport(b: BrowserPush): PushSupport {
  if (!b.serviceWorker || !b.pushManager || !b.notification) return 'unsupported';
  if (b.permission === 'denied') return 'denied';
  return b.permission === 'granted' ? 'granted' : 'default';
}

/** This browser, read once (no globals in the helpers above, so they are tested without a browser). */
export const browserPush = (): BrowserPush => ({
  serviceWorker: typeof navigator !== 'undefined' && 'serviceWorker' in navigator,
  pushManager: typeof window !== 'undefined' && 'PushManager' in window,
  notification: typeof window !== 'undefined' && 'Notification' in window,
  permission: typeof Notification === 'undefined' ? undefined : Notification.permission,
});

/**
 * This browser's push subscription for the app, if it has one. Asks the registration the page
 * already has (no waiting for a worker that may never come); null without one.
 */
export async function thisDevicePush(): Promise<PushSubscription | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager?.getSubscription()) ?? null;
}

/** The VAPID public key (base64url) as the bytes pushManager.subscribe() takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A name for this device from its user agent: "Chrome · Android", "Safari · iPhone"... */
export function deviceLabel(userAgent: string): string {
  const browser =
    [
      ['Edge', /Edg\//],
      ['Opera', /OPR\//],
      ['Samsung Internet', /SamsungBrowser\//],
      ['Firefox', /Firefox\/|FxiOS\//],
      ['Chrome', /Chrome\/|CriOS\//],
      ['Safari', /Safari\//],
    ].find(([, re]) => (re as RegExp).test(userAgent))?.[0] ?? '';
  const system =
    [
      ['Android', /Android/],
      ['iPhone', /iPhone/],
      ['iPad', /iPad/],
      ['Windows', /Windows/],
      ['macOS', /Macintosh|Mac OS X/],
      ['Linux', /Linux/],
    ].find(([, re]) => (re as RegExp).test(userAgent))?.[0] ?? '';
  return [browser, system].filter(Boolean).join(' · ') || 'Browser';
}

export const PREFERENCE_KEYS = [
  'pendingTicket',
  'ticketMessage',
  'chatMention',
  'slaBreach',
  'connectionAlert',
] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];
export const ALL_ON: Required<PushPreferences> = {
  pendingTicket: true,
  ticketMessage: true,
  chatMention: true,
  slaBreach: true,
  connectionAlert: true,
};

/** What only admins are told (the server pushes a number's quality alerts to admins alone). */
const ADMIN_ONLY: readonly PreferenceKey[] = ['connectionAlert'];

/** The switches a user of this profile sees. */
export const preferenceKeysFor = (profile: string | undefined): PreferenceKey[] =>
  PREFERENCE_KEYS.filter((key) => profile === 'admin' || !ADMIN_ONLY.includes(key));

/** A kind added after the device subscribed has no saved choice: it is on, as the server sends it, until turned off. */
export const preferenceOn = (preferences: PushPreferences, key: PreferenceKey) => preferences[key] ?? true;

/** The POST /push/subscriptions body from what the browser's subscription serialises to. */
export function subscriptionBody(json: PushSubscriptionJSON, device: string, preferences: PushPreferences) {
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('incomplete push subscription');
  return {
    endpoint: json.endpoint,
    keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
    device: device.slice(0, 100),
    preferences,
  };
}
