import '#lib/startup';
import { httpModule, route } from '#lib/http';
import { readMultipart } from '#lib/multipart';
import { authenticateApiToken, parseSendFields, sendExternal } from '#lib/whatsapp/external-api';

/**
 * External messages API (management.md "Messages API"): `POST /api/messages/send` with a
 * connection's token as Bearer; JSON `{number, body}` or multipart `number`, `body`, `medias`.
 * Authenticated by the token, not by a user session.
 */
export const handler = httpModule({
  'POST /messages/send': route({ public: true }, async ({ headers, event, clientAddress }) => {
    const whatsapp = await authenticateApiToken(headers.authorization, clientAddress);
    const isMultipart = (headers['content-type'] ?? '').includes('multipart/form-data');
    if (isMultipart) {
      const { fields, files } = await readMultipart(event);
      const input = parseSendFields({ ...fields, body: fields.body || files[0]?.fileName || '' });
      const media = files.filter((f) => f.field === 'medias' || f.field === 'medias[]');
      return { message: 'Message sent', messages: await sendExternal(whatsapp, input, media) };
    }
    let json: unknown = {};
    try {
      json = event.body
        ? JSON.parse(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body)
        : {};
    } catch {
      json = {};
    }
    const input = parseSendFields(json as Record<string, unknown>);
    return { message: 'Message sent', messages: await sendExternal(whatsapp, input) };
  }),
});
