import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
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

let boxKey: Promise<Buffer> | undefined;

/**
 * The key that seals tenants' third-party secrets at rest (AI api keys, service accounts): an HKDF
 * subkey of the data key, a secret of its own (not the JWT key), so the queue consumers that call
 * the providers can open them without being able to sign sessions.
 */
function secretBoxKey(): Promise<Buffer> {
  boxKey ??= (async () => {
    const { dataKeySecret, dataKeySecretArn, region } = config();
    let secret = dataKeySecret;
    if (!secret) {
      if (!dataKeySecretArn) throw new Error('DATA_KEY_SECRET or DATA_KEY_SECRET_ARN must be set');
      const out = await new SecretsManagerClient({ region }).send(
        new GetSecretValueCommand({ SecretId: dataKeySecretArn }),
      );
      secret = out.SecretString!;
    }
    return Buffer.from(hkdfSync('sha256', new TextEncoder().encode(secret), '', 'inbox secret box v1', 32));
  })();
  return boxKey;
}

/** Seals a secret with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export async function sealSecret(plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await secretBoxKey(), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Opens what sealSecret made; throws when it was tampered with or sealed under another key. */
export async function openSecret(sealed: string): Promise<string> {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', await secretBoxKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

export function resetSecrets() {
  jwtKey = undefined;
  pageCursorKey = undefined;
  boxKey = undefined;
}
