import type { InboundMessage } from '#shared/whatsapp-protocol';
import { storeMedia } from '../inbound-media';
import { cloudClientFor } from './connection';

/**
 * A Cloud API message's media, fetched by the inbound consumer (never lazily: Meta's media ids
 * expire after 7 days): `GET /{media-id}` gives a URL that lives 5 minutes, fetched with the same
 * token, then stored like the runner's media. A failure leaves the message with mediaError.
 */
export async function withCloudMedia(companyId: number, whatsappId: number, message: InboundMessage) {
  const { cloudMedia, ...rest } = message;
  if (!cloudMedia) return message;
  return storeMedia(companyId, {
    ...rest,
    media: {
      mimetype: cloudMedia.mimetype,
      fileName: cloudMedia.fileName,
      download: async () => {
        const client = await cloudClientFor(companyId, whatsappId);
        const info = await client.mediaInfo(cloudMedia.id);
        return client.download(info.url);
      },
    },
  });
}
