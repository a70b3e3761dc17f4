import type { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { config } from '#lib/config';
import { newObjectKey, s3 } from '#lib/storage';
import type { InboundMessage } from '#shared/whatsapp-protocol';
import type { ProviderMessage } from './provider';

const extension = (mimetype: string) => mimetype.split('/')[1]?.split(';')[0]?.replace(/[^\w]/g, '') || 'bin';

/**
 * Streams a message's media to S3 under the company's prefix. A failed download never drops the
 * message: it arrives with mediaError ERR_WAPP_DOWNLOAD_MEDIA.
 */
export async function storeMedia(companyId: number, message: ProviderMessage): Promise<InboundMessage> {
  const { media, ...rest } = message;
  if (!media) return rest;
  const fileName = media.fileName || `${message.wid}.${extension(media.mimetype)}`;
  try {
    const data: Buffer | Readable = await media.download();
    const key = newObjectKey(companyId, 'media', fileName);
    const isBuffer = Buffer.isBuffer(data);
    await s3().send(
      new PutObjectCommand({
        Bucket: config().mediaBucket,
        Key: key,
        Body: data,
        ContentType: media.mimetype,
        // a stream needs its length up front; WhatsApp tells it (fileLength)
        ...(isBuffer ? {} : media.size ? { ContentLength: media.size } : {}),
      }),
    );
    return { ...rest, media: { key, mimetype: media.mimetype, fileName, size: isBuffer ? data.length : media.size } };
  } catch {
    return { ...rest, mediaError: 'ERR_WAPP_DOWNLOAD_MEDIA' };
  }
}
