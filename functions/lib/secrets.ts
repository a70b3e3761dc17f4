import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { SecretsManagerClient, GetSecretValueCommand, PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
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

let jwtCryptoKey: Promise<CryptoKey> | undefined;

/** The JWT key imported once for HS256 (jose imports a raw key again on every sign and verify). */
export function jwtHmacKey(): Promise<CryptoKey> {
  jwtCryptoKey ??= signingKey().then((secret) =>
    crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]),
  );
  return jwtCryptoKey;
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

/** The Web Push VAPID key pair (base64url, as web-push's generateVAPIDKeys() makes them). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

function parseVapidKeys(text: string | undefined): VapidKeys | undefined {
  try {
    const value = JSON.parse(text ?? '') as Partial<VapidKeys>;
    const { publicKey, privateKey } = value;
    if (typeof publicKey === 'string' && typeof privateKey === 'string' && publicKey && privateKey)
      return { publicKey, privateKey };
  } catch {
    // not JSON: the placeholder the stack created the secret with
  }
  return undefined;
}

async function readVapidSecret(secretId: string): Promise<VapidKeys | undefined> {
  const out = await new SecretsManagerClient({ region: config().region }).send(
    new GetSecretValueCommand({ SecretId: secretId }),
  );
  return parseVapidKeys(out.SecretString);
}

let vapid: Promise<VapidKeys | undefined> | undefined;

/**
 * The VAPID keys: from the environment locally (the local stack keeps them under its data folder),
 * from Secrets Manager on AWS, where the seed fills the secret after deployment. Read once per
 * instance; "none yet" is not remembered, so keys the seed writes later are found.
 */
export function vapidKeys(): Promise<VapidKeys | undefined> {
  vapid ??= (async () => {
    const { vapidPublicKey, vapidPrivateKey, vapidSecretArn } = config();
    if (vapidPublicKey && vapidPrivateKey) return { publicKey: vapidPublicKey, privateKey: vapidPrivateKey };
    return vapidSecretArn ? readVapidSecret(vapidSecretArn) : undefined;
  })();
  const current = vapid;
  void current.then(
    (keys) => {
      if (!keys && vapid === current) vapid = undefined;
    },
    () => {
      if (vapid === current) vapid = undefined;
    },
  );
  return current;
}

/**
 * The seed (AWS): fills the VAPID secret with `generate()`'s keys when it holds none. Generated once:
 * new keys would void every browser subscription made with the old public key.
 */
export async function ensureVapidKeys(generate: () => VapidKeys): Promise<'kept' | 'created' | 'not-configured'> {
  const { vapidSecretArn, region } = config();
  if (!vapidSecretArn) return 'not-configured';
  if (await readVapidSecret(vapidSecretArn)) return 'kept';
  const keys = generate();
  await new SecretsManagerClient({ region }).send(
    new PutSecretValueCommand({
      SecretId: vapidSecretArn,
      SecretString: JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }),
    }),
  );
  vapid = undefined;
  return 'created';
}

export function resetSecrets() {
  jwtKey = undefined;
  jwtCryptoKey = undefined;
  pageCursorKey = undefined;
  boxKey = undefined;
  vapid = undefined;
}
