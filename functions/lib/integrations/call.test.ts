import { describe, expect, it, vi } from 'vitest';
import { assertPublicUrl, isPrivateAddress } from './call';

// AWS: company URLs must be public (the local runtime sets PROVIDER_PRIVATE_URLS for its fakes)
vi.mock('../config', () => ({ config: () => ({ providerPrivateUrls: false }) }));

describe('outbound URLs of integrations (SSRF)', () => {
  it('private, loopback, link-local, CGNAT, unique-local and multicast addresses are private; public ones are not', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254'])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1'])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('a URL naming or resolving to a private address is refused, not retried; a public one passes; only http(s)', async () => {
    const resolvesTo = (address: string) => (async () => [{ address, family: 4 }]) as never;
    await expect(assertPublicUrl('http://169.254.169.254/latest/meta-data')).rejects.toMatchObject({
      retryable: false,
    });
    await expect(assertPublicUrl('http://hooks.example.test/x', resolvesTo('10.0.0.5'))).rejects.toThrow(/private/);
    await expect(assertPublicUrl('https://hooks.example.test/x', resolvesTo('93.184.216.34'))).resolves.toBeUndefined();
    await expect(assertPublicUrl('file:///etc/passwd')).rejects.toThrow(/http/);
    await expect(assertPublicUrl('not a url')).rejects.toThrow(/invalid/);
  });
});
