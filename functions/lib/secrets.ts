import { hkdfSync } from 'node:crypto';
import { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { config } from './config';

let jwtKey: Promise<Uint8Array> | undefined;

/** The JWT signing key: from Secrets Manager on AWS, from the environment locally. Read once. */
export function signingKey(): Promise<Uint8Array> {
  jwtKey ??= (async () => {
    const { jwtSecret, jwtSecretArn, region } = config();
    if (jwtSecret) return new TextEncoder().encode(jwtSecret);
    if (!jwtSecretArn) throw new Error('JWT_SECRET or JWT_SECRET_ARN must be set');
    const out = await new SecretsManagerClient({ region }).send(new GetSecretValueCommand({ SecretId: jwtSecretArn }));
    return new TextEncoder().encode(out.SecretString!);
  })();
  return jwtKey;
}

let pageCursorKey: Promise<Buffer> | undefined;

/**
 * The page-cursor MAC key: an HKDF subkey of the JWT secret under its own label, so a cursor MAC is
 * never a valid JWT signature (nor the reverse) and no second secret has to be provisioned.
 */
export function cursorKey(): Promise<Buffer> {
  pageCursorKey ??= signingKey().then((secret) =>
    Buffer.from(hkdfSync('sha256', secret, '', 'whaticket page cursor mac v1', 32)),
  );
  return pageCursorKey;
}

export function resetSecrets() {
  jwtKey = undefined;
  pageCursorKey = undefined;
}
