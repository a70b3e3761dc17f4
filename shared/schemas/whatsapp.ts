import { z } from 'zod';
import { CONNECTION_STATUSES } from '../constants';
import { name2to50, queryBool, MSG } from './common';

/** A WhatsApp connection (management.md section 3) as the API returns it. */
export const Whatsapp = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  isDefault: z.boolean(),
  qrcode: z.string().optional(),
  retries: z.number(),
  updatedAt: z.string(),
  createdAt: z.string(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  token: z.string().optional(),
  provider: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  timeToTransfer: z.number().nullable(),
  transferQueueId: z.number().nullable(),
  promptId: z.number().nullable(),
  queueIds: z.array(z.number()),
  queues: z.array(z.object({ id: z.number(), name: z.string(), color: z.string().optional() })).optional(),
  /** the connected phone's number, once connected */
  number: z.string().optional(),
});
export type Whatsapp = z.infer<typeof Whatsapp>;

const text = z.string().max(4096, MSG.long);
const minutes = z.coerce.number().int().min(0);
const nullableId = z
  .union([z.coerce.number().int().positive(), z.literal(''), z.null()])
  .transform((v) => (v === '' ? null : v));

/** The add/edit connection modal's body (management.md sections 5 and 7). */
export const WhatsappBody = z.object({
  name: name2to50,
  isDefault: z.boolean().optional(),
  greetingMessage: text.optional(),
  complationMessage: text.optional(),
  outOfHoursMessage: text.optional(),
  ratingMessage: text.optional(),
  token: z.string().trim().max(200, MSG.long).optional(),
  provider: z.string().max(20).optional(),
  expiresInactiveMessage: text.optional(),
  expiresTicket: minutes.optional(),
  timeUseBotQueues: minutes.optional(),
  maxUseBotQueues: minutes.optional(),
  timeToTransfer: z
    .union([minutes, z.literal(''), z.null()])
    .transform((v) => (v === '' ? null : v))
    .optional(),
  transferQueueId: nullableId.optional(),
  promptId: nullableId.optional(),
  queueIds: z.array(z.coerce.number().int().positive()).optional(),
});
export type WhatsappBody = z.infer<typeof WhatsappBody>;

/** `PUT` accepts any subset of the fields. */
export const WhatsappUpdateBody = WhatsappBody.partial();
export type WhatsappUpdateBody = z.infer<typeof WhatsappUpdateBody>;

/** `session=0` leaves the QR code out (management.md section 7). */
export const WhatsappQuery = z.object({
  session: z.union([z.literal('0'), z.literal('1'), queryBool]).optional(),
  companyId: z.coerce.number().optional(),
});

/** External messages API (`POST /api/messages/send`). */
export const ExternalSendBody = z.object({
  number: z
    .string({ error: MSG.required })
    .trim()
    .regex(/^\+?[\d\s().-]{8,30}$/, MSG.invalid),
  body: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(4096, MSG.long),
});
export type ExternalSendBody = z.infer<typeof ExternalSendBody>;

/** Keeps only the digits of a phone number (the WhatsApp user part of a jid). */
export const digitsOnly = (number: string) => number.replace(/\D/g, '');
