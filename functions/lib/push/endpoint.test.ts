import { describe, expect, it } from 'vitest';
import { endpointId, isAllowedPushEndpoint } from './endpoint';

describe('push subscription endpoints (SSRF guard)', () => {
  it('accepts https endpoints of the known push services', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://eu.push.services.mozilla.com/wpush/v1/x',
      'https://wns2-by3p.notify.windows.com/w/?token=BQYAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://api.push.apple.com/3/device/abc',
    ])
      expect(isAllowedPushEndpoint(endpoint), endpoint).toBe(true);
  });

  it('refuses other hosts, look-alikes, plain http, other ports, credentials and non-URLs', () => {
    for (const endpoint of [
      'https://example.com/push',
      'https://169.254.169.254/latest/meta-data/',
      'https://127.0.0.1/push/1',
      'https://localhost/push/1',
      'https://fcm.googleapis.com.evil.dev/fcm/send/x',
      'https://evilfcm.googleapis.com/fcm/send/x',
      'https://notify.windows.com.evil.dev/w',
      'https://xnotify.windows.com/w',
      'https://push.apple.com/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:pw@fcm.googleapis.com/fcm/send/x',
      'ftp://fcm.googleapis.com/x',
      'fcm.googleapis.com/fcm/send/x',
      '',
    ])
      expect(isAllowedPushEndpoint(endpoint), endpoint).toBe(false);
  });

  it("the local fake's origin only when configured, and only its /push/ paths", () => {
    const local = 'http://127.0.0.1:40123';
    expect(isAllowedPushEndpoint(`${local}/push/abc`)).toBe(false);
    expect(isAllowedPushEndpoint(`${local}/push/abc`, local)).toBe(true);
    expect(isAllowedPushEndpoint(`${local}/api/tickets`, local)).toBe(false);
    expect(isAllowedPushEndpoint('http://127.0.0.1:40124/push/abc', local)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/x', local)).toBe(true);
  });

  it('one id per endpoint: 32 hex digits', () => {
    expect(endpointId('https://fcm.googleapis.com/fcm/send/a')).toMatch(/^[0-9a-f]{32}$/);
    expect(endpointId('https://fcm.googleapis.com/fcm/send/a')).not.toBe(
      endpointId('https://fcm.googleapis.com/fcm/send/b'),
    );
  });
});
