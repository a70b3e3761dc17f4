import {
  S3Client,
  PutObjectCommand,
  GetObjectCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  CopyObjectCommand,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { config } from './config';
import { AppError } from './errors';
import { acceptUpload, servedAs, type AcceptedUpload } from './upload-policy';

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

/** Letters, digits, `_ . -` only; runs of dots collapse and leading dots go, so a name is never a path step. */
const safeName = (name: string) =>
  name
    .replace(/\s+/g, '_')
    .replace(/[^\w.-]/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.+/, '')
    .slice(-120) || 'file';

/** Where an inbound event too large for the queue is kept (a claim check): one object per dedup id. */
export const claimCheckKey = (companyId: number, whatsappId: number, name: string) =>
  `${tenantPrefix(companyId)}inbound-claims/${whatsappId}/${name}.json`;

/** A fresh key under the tenant's prefix: `company<id>/<area>/<uuid>-<name>`. */
export const newObjectKey = (companyId: number, area: string, fileName: string) =>
  `${tenantPrefix(companyId)}${area}/${randomUUID()}-${safeName(fileName)}`;

/** Refuses keys outside the caller's prefix: another company's, or one with a `.`/`..`/empty path step or a backslash. */
export function assertTenantKey(companyId: number, key: string) {
  const steps = key.split('/');
  const traverses = key.includes('\\') || steps.some((step) => step === '' || step === '.' || step === '..');
  if (!key.startsWith(tenantPrefix(companyId)) || traverses) throw new AppError('ERR_NO_PERMISSION');
}

const UPLOAD_SECONDS = 300;
const DOWNLOAD_SECONDS = 3600;

/**
 * A presigned POST for one object: the policy fixes the key, the Content-Type and the size range,
 * so storage itself refuses any other type or a bigger file. The browser posts `fields` then `file`.
 */
export async function presignUpload(companyId: number, key: string, upload: AcceptedUpload) {
  assertTenantKey(companyId, key);
  return createPresignedPost(s3(), {
    Bucket: config().mediaBucket,
    Key: key,
    Fields: { 'Content-Type': upload.mimetype },
    Conditions: [
      ['content-length-range', 1, upload.maxBytes],
      ['eq', '$Content-Type', upload.mimetype],
    ],
    Expires: UPLOAD_SECONDS,
  });
}

/**
 * Re-checks an object uploaded with a presigned POST before it is used, from its stored type, size and
 * first bytes (a storage that does not enforce the POST policy, such as the local emulator, is
 * covered too). A refused object is deleted.
 */
export async function acceptStoredUpload(companyId: number, key: string, fileName: string): Promise<AcceptedUpload> {
  assertTenantKey(companyId, key);
  let object: GetObjectCommandOutput;
  try {
    object = await s3().send(new GetObjectCommand({ Bucket: config().mediaBucket, Key: key, Range: 'bytes=0-63' }));
  } catch (err) {
    if (err instanceof Error && err.name === 'NoSuchKey')
      throw new AppError('ERR_VALIDATION', 400, [{ path: ['media', 'key'], message: 'not uploaded' }]);
    throw err;
  }
  const head = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
  // `bytes 0-63/<total>`: the whole object's size
  const size = Number(object.ContentRange?.split('/')[1] ?? head.length);
  try {
    return acceptUpload({ fileName, mimetype: object.ContentType, size, head });
  } catch (err) {
    await deleteObject(key);
    throw err;
  }
}

/** A download URL; anything but images, audio and video comes as an attachment with a listed or generic type. */
export async function presignGet(companyId: number, key: string) {
  assertTenantKey(companyId, key);
  const served = servedAs(key);
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: config().mediaBucket,
      Key: key,
      ResponseContentType: served.contentType,
      ...(served.inline ? {} : { ResponseContentDisposition: `attachment; filename="${served.fileName}"` }),
    }),
    { expiresIn: DOWNLOAD_SECONDS },
  );
}

export async function putObject(key: string, body: Buffer | Uint8Array | string, contentType?: string) {
  await s3().send(
    new PutObjectCommand({ Bucket: config().mediaBucket, Key: key, Body: body, ContentType: contentType }),
  );
}

export interface StoredUpload extends AcceptedUpload {
  key: string;
}

/**
 * Files in hand (multipart forms): every one is checked against the upload policy, from its bytes,
 * before any is stored; each goes under the tenant prefix as its allow-listed type.
 */
export async function storeUploads(
  companyId: number,
  area: string,
  files: { fileName: string; mimetype: string; data: Buffer }[],
): Promise<StoredUpload[]> {
  const accepted = files.map((file) =>
    acceptUpload({ fileName: file.fileName, mimetype: file.mimetype, size: file.data.length, head: file.data }),
  );
  return Promise.all(
    files.map(async (file, i) => {
      const key = newObjectKey(companyId, area, file.fileName);
      await putObject(key, file.data, accepted[i]!.mimetype);
      return { ...accepted[i]!, key };
    }),
  );
}

export async function storeUpload(
  companyId: number,
  area: string,
  file: { fileName: string; mimetype: string; data: Buffer },
): Promise<StoredUpload> {
  const [stored] = await storeUploads(companyId, area, [file]);
  return stored!;
}

export async function getObject(key: string): Promise<Buffer> {
  const out = await s3().send(new GetObjectCommand({ Bucket: config().mediaBucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** The object's size in bytes, without reading it. */
export async function objectSize(key: string) {
  const out = await s3().send(new HeadObjectCommand({ Bucket: config().mediaBucket, Key: key }));
  return out.ContentLength ?? 0;
}

/** Streams the object into the file at `path` (a large object never sits whole in memory). */
export async function downloadObject(key: string, path: string) {
  const out = await s3().send(new GetObjectCommand({ Bucket: config().mediaBucket, Key: key }));
  await pipeline(out.Body as Readable, createWriteStream(path));
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

/**
 * A copy of one of the company's objects under a fresh key of `area`: a message keeps its media when
 * the quick reply, campaign or list it came from later replaces or deletes its own.
 */
export async function copyObject(companyId: number, from: string, area: string, fileName: string) {
  assertTenantKey(companyId, from);
  const key = newObjectKey(companyId, area, fileName);
  const bucket = config().mediaBucket;
  await s3().send(new CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: encodeURI(`${bucket}/${from}`) }));
  return key;
}
