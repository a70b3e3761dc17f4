import { createHash, timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from './config';
import { AppError } from './errors';

/** Header CloudFront adds to every request it forwards to the HTTP and WebSocket APIs (infra/aws/web.ts). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

let expected: Promise<Buffer> | undefined;

/** Digest of the secret's value, read once per cold start; digests compare in constant time. */
function expectedDigest(secretArn: string): Promise<Buffer> {
  expected ??= new SecretsManagerClient({ region: config().region })
    .send(new GetSecretValueCommand({ SecretId: secretArn }))
    .then((out) => digest(out.SecretString ?? ''))
    .catch((err: unknown) => {
      expected = undefined;
      throw err;
    });
  return expected;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a request came through CloudFront rather than straight to the execute-api endpoint,
 * around the WAF and the security headers. Without ORIGIN_VERIFY_SECRET_ARN (the local runtime,
 * which has no CloudFront) every request did.
 */
export async function isViaCloudFront(event: { headers?: Record<string, string | undefined> }) {
  const secretArn = config().originVerifySecretArn;
  if (!secretArn) return true;
  // HTTP API events carry lowercase names; WebSocket $connect keeps the case CloudFront sent.
  const name = Object.keys(event.headers ?? {}).find((key) => key.toLowerCase() === ORIGIN_VERIFY_HEADER);
  const sent = name ? event.headers?.[name] : undefined;
  return Boolean(sent) && timingSafeEqual(digest(sent ?? ''), await expectedDigest(secretArn));
}

/** The HTTP wrapper's guard: 403 ERR_FORBIDDEN_ORIGIN for a request that bypassed CloudFront. */
export async function assertViaCloudFront(event: { headers?: Record<string, string | undefined> }) {
  if (!(await isViaCloudFront(event))) throw new AppError('ERR_FORBIDDEN_ORIGIN', 403);
}

/**
 * The client's address. Behind CloudFront the API sees CloudFront's edge address as the source, so
 * the viewer's own address comes from `CloudFront-Viewer-Address` (`<ip>:<port>`), which CloudFront
 * sets itself; it is trusted only where the origin check is on, i.e. the request came through
 * CloudFront (a direct caller can forge the header, but is refused by the origin check).
 */
export function clientAddress(event: {
  headers?: Record<string, string | undefined>;
  requestContext: { http: { sourceIp: string } };
}): string {
  const viewer = config().originVerifySecretArn ? event.headers?.['cloudfront-viewer-address'] : undefined;
  const ip = viewer?.slice(0, viewer.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  return ip || event.requestContext.http.sourceIp;
}

/** Tests change the environment between cases. */
export function resetOrigin() {
  expected = undefined;
}
