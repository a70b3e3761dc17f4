/**
 * How a file goes out through the WhatsApp Cloud API: Meta takes images (JPEG, PNG) up to 5 MB,
 * videos (MP4, 3GP) and audio (AAC, AMR, MP3, M4A, OGG/Opus) up to 16 MB, and documents of any
 * kind up to 100 MB. A file Meta would refuse as what it is (a GIF or WebP image, a video over
 * 16 MB ...) goes as a document: the customer gets the file, never an error.
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/business-phone-numbers/media
 */
export type CloudMediaType = 'image' | 'video' | 'audio' | 'document';

const MB = 1024 * 1024;
const RULES: { type: Exclude<CloudMediaType, 'document'>; types: RegExp; maxBytes: number }[] = [
  { type: 'image', types: /^image\/(jpeg|png)$/, maxBytes: 5 * MB },
  { type: 'video', types: /^video\/(mp4|3gpp)$/, maxBytes: 16 * MB },
  { type: 'audio', types: /^audio\/(aac|amr|mpeg|mp4|ogg)$/, maxBytes: 16 * MB },
];
export const CLOUD_DOCUMENT_MAX_BYTES = 100 * MB;

export function cloudMediaType(mimetype: string, size: number): CloudMediaType {
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  const rule = RULES.find((r) => r.types.test(type));
  return rule && size <= rule.maxBytes ? rule.type : 'document';
}
