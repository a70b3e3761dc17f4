import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from './config';
import { assertViaCloudFront, clientAddress, isViaCloudFront, ORIGIN_VERIFY_HEADER, resetOrigin } from './origin';

const secretReads = vi.hoisted(() => ({ count: 0, value: 'cloudfront-only-value' }));
vi.mock('@aws-sdk/client-secrets-manager', () => ({
  GetSecretValueCommand: class {
    constructor(readonly input: unknown) {}
  },
  SecretsManagerClient: class {
    async send() {
      secretReads.count++;
      return { SecretString: secretReads.value };
    }
  },
}));

const env = { ...process.env };
const withEnv = (extra: Record<string, string | undefined>) => {
  process.env = { ...env, TABLE_NAME: 't', MEDIA_BUCKET: 'm', ...extra };
  resetConfig();
  resetOrigin();
};

const refusal = (headers?: Record<string, string>) =>
  assertViaCloudFront({ headers }).then(
    () => undefined,
    (err: { code?: string; status?: number }) => ({ code: err.code, status: err.status }),
  );

describe('requests must come through CloudFront (origin-verify header)', () => {
  beforeEach(() => {
    secretReads.count = 0;
    withEnv({ ORIGIN_VERIFY_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:origin' });
  });
  afterEach(() => {
    process.env = env;
    resetConfig();
    resetOrigin();
  });

  it('a request sent to the gateway directly (no header) is refused with 403 ERR_FORBIDDEN_ORIGIN', async () => {
    expect(await refusal({ host: 'abc.execute-api.eu-west-1.amazonaws.com' })).toEqual({
      code: 'ERR_FORBIDDEN_ORIGIN',
      status: 403,
    });
    expect(await refusal(undefined)).toEqual({ code: 'ERR_FORBIDDEN_ORIGIN', status: 403 });
  });

  it('a wrong or empty header value is refused', async () => {
    expect(await refusal({ [ORIGIN_VERIFY_HEADER]: 'guess' })).toEqual({ code: 'ERR_FORBIDDEN_ORIGIN', status: 403 });
    expect(await refusal({ [ORIGIN_VERIFY_HEADER]: '' })).toEqual({ code: 'ERR_FORBIDDEN_ORIGIN', status: 403 });
    expect(await refusal({ [ORIGIN_VERIFY_HEADER]: `${secretReads.value}x` })).toEqual({
      code: 'ERR_FORBIDDEN_ORIGIN',
      status: 403,
    });
  });

  it('the value CloudFront sends passes, in any header case, and the secret is read once', async () => {
    expect(await refusal({ [ORIGIN_VERIFY_HEADER]: secretReads.value })).toBeUndefined();
    expect(await refusal({ 'X-Origin-Verify': secretReads.value })).toBeUndefined();
    expect(secretReads.count).toBe(1);
  });

  it('the WebSocket handshake check agrees: refused without the header, accepted with it', async () => {
    expect(await isViaCloudFront({ headers: { Host: 'abc.execute-api.eu-west-1.amazonaws.com' } })).toBe(false);
    expect(await isViaCloudFront({ headers: { 'X-Origin-Verify': secretReads.value } })).toBe(true);
  });

  it('without ORIGIN_VERIFY_SECRET_ARN (the local runtime) every request passes and no secret is read', async () => {
    withEnv({ ORIGIN_VERIFY_SECRET_ARN: undefined });
    expect(await refusal({})).toBeUndefined();
    expect(secretReads.count).toBe(0);
  });
});

describe('client address for rate limits', () => {
  const event = (headers: Record<string, string>) => ({
    headers,
    requestContext: { http: { sourceIp: '130.176.1.1' } },
  });
  afterEach(() => {
    process.env = env;
    resetConfig();
  });

  it("behind CloudFront the viewer's address counts, not the edge's (IPv4 and IPv6)", () => {
    withEnv({ ORIGIN_VERIFY_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:origin' });
    expect(clientAddress(event({ 'cloudfront-viewer-address': '198.51.100.10:46532' }))).toBe('198.51.100.10');
    expect(clientAddress(event({ 'cloudfront-viewer-address': '2001:db8::1:443' }))).toBe('2001:db8::1');
    expect(clientAddress(event({}))).toBe('130.176.1.1');
  });

  it('without CloudFront (the local runtime) the header is not trusted', () => {
    withEnv({ ORIGIN_VERIFY_SECRET_ARN: undefined });
    expect(clientAddress(event({ 'cloudfront-viewer-address': '198.51.100.10:46532' }))).toBe('130.176.1.1');
  });
});
