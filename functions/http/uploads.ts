import '#lib/startup';
import { httpModule, reply, route } from '#lib/http';
import { UploadBody, type UploadTicket } from '#shared/schemas/messages';
import { newObjectKey, presignUpload } from '#lib/storage';
import { acceptUpload } from '#lib/upload-policy';

/**
 * Direct-to-S3 uploads (never capped by the API's body limit): a short-lived presigned POST under the
 * company's prefix whose policy fixes the allow-listed type and the size limit of its kind.
 */
export const handler = httpModule({
  'POST /uploads': route({ body: UploadBody }, async ({ auth, body }) => {
    const upload = acceptUpload({ fileName: body.fileName, mimetype: body.contentType, size: body.size });
    const key = newObjectKey(auth.companyId, 'media', body.fileName);
    const { url, fields } = await presignUpload(auth.companyId, key, upload);
    return reply(
      { url, fields, key, mimetype: upload.mimetype, maxBytes: upload.maxBytes } satisfies UploadTicket,
      201,
    );
  }),
});
