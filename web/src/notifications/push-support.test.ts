import { describe, expect, test } from 'vitest';
import {
  ALL_ON,
  applicationServerKey,
  deviceLabel,
  preferenceKeysFor,
  preferenceOn,
  pushSupport,
  subscriptionBody,
} from './push-support';

describe('push on this device', () => {
  test('push needs a service worker, the Push API and notifications; a denied permission says so', () => {
    const all = { serviceWorker: true, pushManager: true, notification: true };
    expect(pushSupport({ ...all, permission: 'default' })).toBe('default');
    expect(pushSupport({ ...all, permission: 'granted' })).toBe('granted');
    expect(pushSupport({ ...all, permission: 'denied' })).toBe('denied');
    expect(pushSupport({ ...all, pushManager: false, permission: 'granted' })).toBe('unsupported');
    expect(pushSupport({ ...all, serviceWorker: false })).toBe('unsupported');
    expect(pushSupport({ ...all, notification: false })).toBe('unsupported');
  });

  test('the VAPID public key (base64url, unpadded) becomes its 65 bytes', () => {
    const raw = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : (i * 37) % 256));
    const encoded = btoa(String.fromCharCode(...raw))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect([...applicationServerKey(encoded)]).toEqual([...raw]);
  });

  test('a device is named after its browser and system', () => {
    expect(
      deviceLabel(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome · Android');
    expect(
      deviceLabel(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari · iPhone');
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox · Windows',
    );
    expect(
      deviceLabel(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0',
      ),
    ).toBe('Edge · Windows');
    expect(deviceLabel('')).toBe('Browser');
  });

  test("the subscription's JSON becomes the API body; an incomplete one is refused", () => {
    const json = { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: 'B', auth: 'a' } };
    expect(subscriptionBody(json, 'Phone', ALL_ON)).toEqual({ ...json, device: 'Phone', preferences: ALL_ON });
    expect(() => subscriptionBody({ endpoint: 'x' }, 'Phone', ALL_ON)).toThrow();
  });
});

describe('what a device is told', () => {
  test("a number's quality alerts are offered to admins only, after the four kinds everyone has", () => {
    const everyone = ['pendingTicket', 'ticketMessage', 'chatMention', 'slaBreach'];
    expect(preferenceKeysFor('admin')).toEqual([...everyone, 'connectionAlert']);
    expect(preferenceKeysFor('user')).toEqual(everyone);
    expect(preferenceKeysFor('supervisor')).toEqual(everyone);
    expect(preferenceKeysFor(undefined)).toEqual(everyone);
  });

  test('a device subscribed before the quality alerts existed has them on until its user turns them off', () => {
    const before = { pendingTicket: true, ticketMessage: false, chatMention: true, slaBreach: true };
    expect(preferenceOn(before, 'connectionAlert')).toBe(true);
    expect(preferenceOn({ ...before, connectionAlert: false }, 'connectionAlert')).toBe(false);
    expect(preferenceOn(before, 'ticketMessage')).toBe(false);
  });

  test('a new subscription asks for every kind, the quality alerts included', () => {
    expect(ALL_ON).toEqual({
      pendingTicket: true,
      ticketMessage: true,
      chatMention: true,
      slaBreach: true,
      connectionAlert: true,
    });
  });
});
