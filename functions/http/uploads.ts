import { httpModule, reply, route } from '#lib/http';
import { UploadBody } from '#shared/schemas/messages';
import { newObjectKey, presignPut } from '#lib/storage';

/** Direct-to-S3 uploads: a short-lived presigned PUT under the company's prefix (never capped by the API's body limit). */
export const handler = httpModule({
  'POST /uploads': route({ body: UploadBody }, async ({ auth, body }) => {
    const key = newObjectKey(auth.companyId, 'media', body.fileName);
    return reply({ url: await presignPut(auth.companyId, key, body.contentType), key }, 201);
  }),
});
