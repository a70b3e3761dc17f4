import { z } from 'zod';
import { MSG, bodyId, cursorFields, pageNumberNeedsCursor } from './common';
import type { NormalizedMediaType } from '../whatsapp-protocol';
import { TemplateSendInput, type MessageTemplate } from './whatsapp-templates';
import type { Transport } from '../transports';

/**
 * Message (attendance.md 3). `id` is a time-ordered string (sortable by creation time), so a page
 * is one Query in id order; `wid` is the WhatsApp id once known.
 */
export interface QuotedMessage {
  id: string;
  body: string;
  fromMe: boolean;
  mediaType: string;
  contact: { name: string } | null;
}

/** One reaction on a message: one per reactor (`by`: `me` for the company, else the contact's or member's id). */
export interface MessageReaction {
  by: string;
  emoji: string;
  fromMe: boolean;
  at: string;
  /** the attendant who reacted in the company's name */
  userId?: number;
}

/** `POST /messages/{id}/reactions`: an emoji, or empty to take the company's reaction back. */
export const ReactionBody = z.object({ emoji: z.string().max(32, MSG.long) });

export interface Message {
  id: string;
  companyId: number;
  ticketId: number;
  contactId: number;
  whatsappId: number;
  wid: string | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: NormalizedMediaType | string;
  mediaUrl: string | null;
  /** object key of the media in the bucket (the URL is presigned at read time) */
  mediaKey?: string | null;
  mediaName?: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  quotedMsgId: string | null;
  quotedMsg: QuotedMessage | null;
  /** in groups, the participant who wrote it; otherwise the ticket's contact */
  contact: { name: string } | null;
  participant?: string | null;
  userId: number | null;
  automatic: boolean;
  /** ERR_SENDING_WAPP_MSG when the runner could not send it */
  error?: string | null;
  /** the provider's reason for a failed send, when it gave one (Cloud API: Meta's error code and title) */
  providerError?: { code: number; title: string } | null;
  /** the undelivered watchdog found no delivery ack after UNDELIVERED_AFTER_MINUTES (cleared by a late ack) */
  undelivered?: boolean;
  /** the id of the message that resent this one (POST /messages/{id}/resend) */
  resentAs?: string | null;
  /** a customer's audio as text, when the ticket's AI prompt had it transcribed (shown under the audio) */
  transcript?: string | null;
  /** a campaign's message: its acks fill the contact's shipping item (campaign id, shipping number) */
  campaign?: { campaignId: number; shipping: string };
  /** a Cloud API template message: which template, with the values its variables were sent with */
  template?: MessageTemplate;
  /**
   * A contact's message that reached the session but could not be decrypted: a placeholder (body
   * empty) that the real message, arriving later with the same wid, replaces (the flag then goes).
   */
  undecryptable?: boolean;
  /** on a placeholder only: it opened its ticket (the real message then counts as the ticket's first) */
  openedTicket?: boolean;
  /**
   * A connection with two transports: which one this message went or came through (`failedOver`:
   * routed to WhatsApp Web, sent through the Cloud API because no runner took it in time).
   */
  transport?: Transport;
  failedOver?: boolean;
  /** emoji reactions, one per reactor (WhatsApp shows them under the message) */
  reactions?: MessageReaction[];
  /**
   * An AI agent's answer (issue 39): the knowledge articles it was drawn from, with their titles as
   * they were when it was sent. The customer read the titles at the end of the text; attendants see
   * them on the bubble.
   */
  knowledgeArticles?: { id: number; title: string }[];
  createdAt: string;
  updatedAt: string;
}

/** Kept on the ticket by the undelivered watchdog: its messages flagged `undelivered` right now. */
export interface UndeliveredCount {
  undeliveredMessages?: number;
}

export const MEDIA_KINDS = ['image', 'audio', 'video', 'document', 'sticker'] as const;

/** The JSON composer body: text (never blank unless media), a quoted message and media already uploaded. */
export const SendMessageBody = z
  .object({
    body: z.string().max(65_536, MSG.long).optional().default(''),
    quotedMsg: z
      .object({ id: z.string().min(1) })
      .passthrough()
      .nullable()
      .optional(),
    /** media uploaded through POST /uploads */
    media: z
      .object({
        key: z.string().min(1),
        mimetype: z.string().min(1).max(200),
        fileName: z.string().min(1).max(255),
        kind: z.enum(MEDIA_KINDS).optional(),
        ptt: z.boolean().optional(),
      })
      .optional(),
    /** a quick reply chosen in the composer: its media (if any) goes with the text, as a copy of its own */
    quickMessageId: z.number().int().positive().optional(),
    /** an approved template of a Cloud API connection (the message's text is the template's, filled) */
    template: TemplateSendInput.optional(),
    /** older clients send these; the server decides both */
    read: z.unknown().optional(),
    fromMe: z.unknown().optional(),
    mediaUrl: z.unknown().optional(),
  })
  .refine((v) => v.media || v.quickMessageId || v.template || v.body.trim().length > 0, {
    message: MSG.required,
    path: ['body'],
  })
  .refine((v) => !(v.template && (v.media || v.quickMessageId)), { message: 'a template only', path: ['template'] })
  .refine((v) => !(v.media && v.quickMessageId), { message: 'one media only', path: ['quickMessageId'] });
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/**
 * GET /messages/{ticketId}: `conversation` is the ticket's `<contactId>-<whatsappId>` as the client
 * last saw it, so that the page's Query leaves beside the ticket's read. A hint: the server checks it
 * against the ticket read beside it, and reads again when it no longer holds.
 */
export const MessagesQuery = pageNumberNeedsCursor(
  z.object({
    ...cursorFields,
    conversation: z
      .string()
      .regex(/^\d{1,15}-\d{1,15}$/, MSG.invalid)
      .optional(),
  }),
);

/** POST /uploads: the type and size are checked against the upload policy, and bound in the signed POST. */
export const UploadBody = z.object({
  fileName: z.string().trim().min(1, MSG.required).max(255, MSG.long),
  contentType: z.string().trim().max(200).optional().default(''),
  /** bytes, when the client knows them: a file over the limit is refused before it is sent */
  size: z.number().int().nonnegative().optional(),
});

/** What POST /uploads answers: post `fields` and then the file (field `file`) to `url`. */
export interface UploadTicket {
  url: string;
  fields: Record<string, string>;
  key: string;
  /** the type the file is stored and sent as */
  mimetype: string;
  maxBytes: number;
}

/** Ticket note (attendance.md 5): at least 2 characters. */
export const TicketNoteBody = z.object({
  note: z.string({ error: MSG.required }).trim().min(2, MSG.short).max(5000, MSG.long),
  ticketId: bodyId,
  contactId: bodyId,
});
export const TicketNotesQuery = z.object({
  ticketId: z.coerce.number().int().positive().optional(),
  contactId: z.coerce.number().int().positive(),
});

export interface TicketNote {
  id: number;
  companyId: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number;
  user: { id: number; name: string };
  createdAt: string;
}

/** mimetype -> the kind the session runner sends it as */
export function mediaKindOf(mimetype: string): (typeof MEDIA_KINDS)[number] {
  if (mimetype.startsWith('image/')) return mimetype === 'image/webp' ? 'sticker' : 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'document';
}

/** stored mediaType of a sent message, as the web renders it (image, audio, video, application) */
export function mediaTypeOf(mimetype: string): string {
  const top = mimetype.split('/')[0] ?? 'application';
  return ['image', 'audio', 'video'].includes(top) ? top : 'application';
}
