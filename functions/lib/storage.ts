import {
  S3Client,
  PutObjectCommand,
  GetObjectCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomUUID } from 'node:crypto';
import { config } from './config';
import { AppError } from './errors';

let client: S3Client | undefined;
export function s3() {
  const { region, s3Endpoint } = config();
  client ??= new S3Client({
    region,
    endpoint: s3Endpoint,
    forcePathStyle: Boolean(s3Endpoint),
    ...(s3Endpoint ? { credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } } : {}),
  });
  return client;
}

export function resetStorage() {
  client = undefined;
}

/** Every object of a company lives under `company<id>/`. */
export const tenantPrefix = (companyId: number) => `company${companyId}/`;

const safeName = (name: string) =>
  name
    .replace(/\s+/g, '_')
    .replace(/[^\w.-]/g, '')
    .slice(-120) || 'file';

/** A fresh key under the tenant's prefix: `company<id>/<area>/<uuid>-<name>`. */
export const newObjectKey = (companyId: number, area: string, fileName: string) =>
  `${tenantPrefix(companyId)}${area}/${randomUUID()}-${safeName(fileName)}`;

/** Refuses keys outside the caller's prefix (a key from another company, or `..` tricks). */
export function assertTenantKey(companyId: number, key: string) {
  if (!key.startsWith(tenantPrefix(companyId)) || key.includes('..')) throw new AppError('ERR_NO_PERMISSION');
}

const UPLOAD_SECONDS = 300;
const DOWNLOAD_SECONDS = 3600;

export async function presignPut(companyId: number, key: string, contentType: string) {
  assertTenantKey(companyId, key);
  return getSignedUrl(
    s3(),
    new PutObjectCommand({ Bucket: config().mediaBucket, Key: key, ContentType: contentType }),
    {
      expiresIn: UPLOAD_SECONDS,
    },
  );
}

export async function presignGet(companyId: number, key: string) {
  assertTenantKey(companyId, key);
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: config().mediaBucket, Key: key }), {
    expiresIn: DOWNLOAD_SECONDS,
  });
}

export async function putObject(key: string, body: Buffer | Uint8Array | string, contentType?: string) {
  await s3().send(
    new PutObjectCommand({ Bucket: config().mediaBucket, Key: key, Body: body, ContentType: contentType }),
  );
}

export async function getObject(key: string): Promise<Buffer> {
  const out = await s3().send(new GetObjectCommand({ Bucket: config().mediaBucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

export async function objectExists(key: string) {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: config().mediaBucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

export async function deleteObject(key: string) {
  await s3().send(new DeleteObjectCommand({ Bucket: config().mediaBucket, Key: key }));
}
