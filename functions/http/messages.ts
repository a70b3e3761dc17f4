import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { MessagesQuery, ReactionBody, SendMessageBody, mediaKindOf } from '#shared/schemas/messages';
import { AppError } from '#lib/errors';
import { acceptStoredUpload, storeUploads } from '#lib/storage';
import { readMultipart } from '#lib/multipart';
import { requireStoredTicket } from '#lib/tickets/repo';
import { assertCanSee, assertMaySend } from '#lib/tickets/access';
import { quickMessageMedia, quickMessageText } from '#lib/quick-messages/service';
import { listMessages } from '#lib/messages/list';
import { resendMessage, sendMessage } from '#lib/messages/send';
import { deleteMessageByUser } from '#lib/messages/edits';
import { reactByUser } from '#lib/messages/reactions';
import { presentMessage } from '#lib/messages/repo';
import type { AuthContext } from '#lib/auth';
import type { HttpEvent } from '#lib/http';

/** GET and POST take the ticket id, DELETE the message id (one variable name per path level). */
const ticketParams = z.object({ id: idParam });
const messageParams = z.object({ id: z.string().regex(/^[0-9a-z]{10,32}(-[0-9a-z]{1,11}-[0-9a-z]{1,11})?$/) });
const actorOf = (auth: AuthContext) => ({ userId: auth.userId, profile: auth.profile });

const isMultipart = (event: HttpEvent) => (event.headers?.['content-type'] ?? '').includes('multipart/form-data');

/** The stored message as the API shows it (media as a presigned URL). */
const sendAndPresent = async (...args: Parameters<typeof sendMessage>) => presentMessage(await sendMessage(...args));

function jsonBody(event: HttpEvent): unknown {
  if (!event.body) return {};
  try {
    return JSON.parse(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
  } catch {
    throw new AppError('ERR_VALIDATION', 400, [{ path: [], message: 'invalid json' }]);
  }
}

/**
 * The ticket the caller may write to (ERR_NO_TICKET_FOUND / ERR_NO_PERMISSION), checked before any
 * upload is stored: one another attendant handles is ERR_TICKET_LOCKED (issue 24, soft lock).
 */
async function writableTicket(auth: AuthContext, ticketId: number) {
  const stored = await requireStoredTicket(auth.companyId, ticketId);
  await assertCanSee(auth.companyId, actorOf(auth), stored);
  assertMaySend(actorOf(auth), stored);
  // the stored form (with its version) lets the send skip a second read of the ticket
  return stored;
}

/**
 * Messages (attendance.md 2.5, 2.6, 7). Sending takes JSON (text, quote, media already uploaded
 * through POST /uploads) or, for small files, multipart (`medias` files, `body`): each file is put
 * under the company's prefix and sent as its own message with the file name as body.
 */
export const handler = httpModule({
  'GET /messages/{id}': route({ params: ticketParams, query: MessagesQuery }, async ({ auth, params, query }) =>
    listMessages(auth.companyId, actorOf(auth), params.id, query.cursor, query.limit, query.conversation),
  ),

  'POST /messages/{id}': route({ params: ticketParams }, async ({ auth, params, event }) => {
    const ticket = await writableTicket(auth, params.id);
    if (isMultipart(event)) {
      const { fields, files } = await readMultipart(event);
      if (!files.length) throw new AppError('ERR_VALIDATION', 400, [{ path: ['medias'], message: 'required' }]);
      const stored = await storeUploads(auth.companyId, 'media', files);
      const sent = [];
      for (const [i, file] of files.entries()) {
        const { key, mimetype } = stored[i]!;
        sent.push(
          await sendAndPresent(auth.companyId, ticket, {
            body: files.length === 1 && fields.body?.trim() ? fields.body : file.fileName,
            media: { key, mimetype, fileName: file.fileName, kind: mediaKindOf(mimetype) },
            quotedMsgId: fields.quotedMsgId || undefined,
            userId: auth.userId,
          }),
        );
      }
      return reply(sent.length === 1 ? sent[0] : sent, 201);
    }
    const parsed = SendMessageBody.safeParse(jsonBody(event));
    if (!parsed.success)
      throw new AppError(
        'ERR_VALIDATION',
        400,
        parsed.error.issues.map((i) => ({ path: i.path, message: i.message })),
      );
    const body = parsed.data;
    // the stored object's own type (bound by the presigned POST), never the one the client repeats
    const mimetype =
      body.media && (await acceptStoredUpload(auth.companyId, body.media.key, body.media.fileName)).mimetype;
    const quick = body.quickMessageId ? await quickMessageMedia(auth, body.quickMessageId) : undefined;
    // a chosen quick message's variables are filled for this ticket's contact
    const text = body.quickMessageId ? await quickMessageText(auth.companyId, ticket, body.body) : body.body;
    const message = await sendAndPresent(auth.companyId, ticket, {
      body: text.trim() ? text : (quick?.fileName ?? text),
      media:
        body.media && mimetype
          ? { ...body.media, mimetype, kind: body.media.kind ?? mediaKindOf(mimetype) }
          : quick && { ...quick, kind: mediaKindOf(quick.mimetype) },
      quotedMsgId: body.quotedMsg?.id,
      userId: auth.userId,
      ...(body.template ? { template: body.template } : {}),
    });
    return reply(message, 201);
  }),

  'DELETE /messages/{id}': route({ params: messageParams }, async ({ auth, params }) =>
    presentMessage(await deleteMessageByUser(auth.companyId, actorOf(auth), params.id)),
  ),

  /** an emoji on a message in the company's name (empty: taken back); the soft lock applies */
  'POST /messages/{id}/reactions': route(
    { params: messageParams, body: ReactionBody },
    async ({ auth, params, body }) =>
      presentMessage(await reactByUser(auth.companyId, actorOf(auth), params.id, body.emoji)),
  ),

  /** one of our messages without a delivery ack, sent again as a new message (issue 15, undelivered watchdog) */
  'POST /messages/{id}/resend': route({ params: messageParams }, async ({ auth, params }) =>
    reply(await presentMessage(await resendMessage(auth.companyId, actorOf(auth), params.id)), 201),
  ),
});
