import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { InboundMessage } from '#shared/whatsapp-protocol';
import { config } from './config';
import { newObjectKey, s3 } from './storage';
import { inboundMediaType } from './upload-policy';

/** A message's media before it is stored: what the provider says of it, and how to fetch it. */
export interface MediaSource {
  download: () => Promise<Buffer | Readable>;
  mimetype: string;
  fileName?: string;
  size?: number;
}

/** A message as a transport hands it over (the session runner's providers, the Cloud API consumer). */
export type ProviderMessage = Omit<InboundMessage, 'media' | 'mediaError'> & { media?: MediaSource };

const extension = (mimetype: string) => mimetype.split('/')[1]?.split(';')[0]?.replace(/[^\w]/g, '') || 'bin';

/** The first chunk of a download (enough to sniff its type) and the whole download, still unread. */
async function peek(data: Buffer | Readable): Promise<{ head: Uint8Array; body: Buffer | Readable }> {
  if (Buffer.isBuffer(data)) return { head: data.subarray(0, 64), body: data };
  const chunks = data[Symbol.asyncIterator]();
  const first = await chunks.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
  async function* whole() {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  return { head, body: Readable.from(whole()) };
}

/**
 * Every transport's inbound media (the runner's downloads, the Cloud API's media ids).
 * Streams a message's media to S3 under the company's prefix, typed by what its first bytes show
 * (the sender's claimed type is kept only when they agree; see upload-policy.ts). A failed download
 * never drops the message: it arrives with mediaError ERR_WAPP_DOWNLOAD_MEDIA.
 */
export async function storeMedia(companyId: number, message: ProviderMessage): Promise<InboundMessage> {
  const { media, ...rest } = message;
  if (!media) return rest;
  const fileName = media.fileName || `${message.wid}.${extension(media.mimetype)}`;
  try {
    const { head, body } = await peek(await media.download());
    const mimetype = inboundMediaType(media.mimetype, head);
    const key = newObjectKey(companyId, 'media', fileName);
    const isBuffer = Buffer.isBuffer(body);
    await s3().send(
      new PutObjectCommand({
        Bucket: config().mediaBucket,
        Key: key,
        Body: body,
        ContentType: mimetype,
        // a stream needs its length up front; WhatsApp tells it (fileLength)
        ...(isBuffer ? {} : media.size ? { ContentLength: media.size } : {}),
      }),
    );
    return { ...rest, media: { key, mimetype, fileName, size: isBuffer ? body.length : media.size } };
  } catch {
    return { ...rest, mediaError: 'ERR_WAPP_DOWNLOAD_MEDIA' };
  }
}
