import { z } from 'zod';
import { CUSTOM_FIELD_KEY, CustomFieldValuesBody, MAX_LINK_VALUE } from './custom-fields';
import { MSG, bodyId, cursorQuery, idParam, isoDate, nullableBodyId, queryBool } from './common';

/** Contact fields (attendance.md 3, management.md 3). `number` holds digits only; groups keep their group id. */
export const ExtraInfo = z.object({
  name: z.string().trim().min(1, MSG.required).max(100, MSG.long),
  value: z.string().max(1000, MSG.long),
});

export const Contact = z.object({
  id: z.number(),
  uuid: z.string(),
  companyId: z.number(),
  name: z.string(),
  number: z.string(),
  /** the contact's `@lid` id when WhatsApp gave one (one customer, two ids) */
  lid: z.string().optional(),
  /** a lid-only contact: the number WhatsApp said the lid belongs to (a suggested duplicate until merged) */
  lidPn: z.string().optional(),
  /** numbers and lids of contacts merged into this one: their guards lead here (issue 27) */
  mergedNumbers: z.array(z.string()).optional(),
  mergedLids: z.array(z.string()).optional(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  extraInfo: z.array(ExtraInfo),
  /** values of the company's contact custom fields by key (issue 40; shared/schemas/custom-fields.ts) */
  customFields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  whatsappId: z.number().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contact = z.infer<typeof Contact>;

/** Contact form (attendance.md 5): name 2-50, number 8-50 digits, e-mail valid when given. */
export const contactName = z.string({ error: MSG.required }).trim().min(2, MSG.short).max(50, MSG.long);
export const contactNumber = z
  .string({ error: MSG.required })
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().min(8, MSG.short).max(50, MSG.long));
const optionalEmail = z
  .union([z.literal(''), z.string().trim().toLowerCase().email(MSG.email).max(254, MSG.long)])
  .optional()
  .nullable()
  .transform((v) => v ?? '');

export const ContactBody = z.object({
  name: contactName,
  number: contactNumber,
  email: optionalEmail,
  extraInfo: z.array(ExtraInfo).max(50).optional(),
  /** the custom fields it sets (a key to its value, null to clear), each checked by its field */
  customFields: CustomFieldValuesBody.optional(),
  whatsappId: nullableBodyId.optional(),
});
export type ContactBody = z.infer<typeof ContactBody>;

/**
 * An edit changes what it names. An empty number leaves the number as it is: a contact WhatsApp knows
 * only by its `@lid` id (no number) is edited without inventing one, and gets its number when one is typed.
 */
export const ContactUpdateBody = ContactBody.extend({
  number: z.union([z.literal(''), contactNumber]).transform((v) => v || undefined),
}).partial();
export type ContactUpdateBody = z.infer<typeof ContactUpdateBody>;

/** A day `YYYY-MM-DD` or a full ISO date-time. */
export const dayOrIso = z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), isoDate]);

export const ContactsQuery = cursorQuery.extend({
  searchParam: z.string().max(100).optional(),
  /** contacts created on this day */
  date: dayOrIso.optional(),
  dateStart: dayOrIso.optional(),
  dateEnd: dayOrIso.optional(),
  /** the first page of a CSV export: the export is recorded on the audit trail */
  export: queryBool.optional(),
  /** contacts whose custom field `field` holds `fieldValue` (read as the field's type), or any value when empty */
  field: z.string().regex(CUSTOM_FIELD_KEY, MSG.invalid).optional(),
  fieldValue: z.string().max(MAX_LINK_VALUE, MSG.long).optional(),
  /** the contacts of this segment (shared/schemas/segments.ts), with the filters above applied to them */
  segmentId: idParam.optional(),
});

/**
 * Spreadsheet rows of the import screen (at most 5,000 per request); validated row by row so one bad
 * row never fails the batch. A row may carry `line`, its line in the spreadsheet, for the error list.
 */
export const ContactUploadBody = z.array(z.record(z.string(), z.unknown())).max(5000);

/** POST /contacts/import: the connection whose phone's address book is imported (default: the default one). */
export const ContactPhoneImportBody = z.object({ whatsappId: idParam.optional() }).strict().default({});

export interface ContactUploadResult {
  newContacts: { contactId: number; contactName: string }[];
  /** `line`: the row's line in the spreadsheet (the header is line 1) */
  errorBag: { line: number; contactName: string; error: { message: string } }[];
}

/** Why two contacts are suggested as one person (issue 27). */
export const DUPLICATE_REASONS = ['number', 'lid', 'name'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

/** GET /contacts/duplicates: one suggestion per pair, with its reasons (same number in any notation,
 * a lid WhatsApp mapped to the number, the same name and number suffix). */
export interface ContactDuplicate {
  contacts: [Contact, Contact];
  reasons: DuplicateReason[];
}

export const DuplicatesQuery = z.object({
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/** POST /contacts/duplicates/dismiss: "not duplicates". */
export const DuplicateDismissBody = z.object({ contactIds: z.tuple([bodyId, bodyId]) }).strict();

/** POST /contacts/{keepId}/merge: `otherId` moves into the kept contact and is deleted. */
export const ContactMergeBody = z.object({ otherId: bodyId }).strict();

/** What a merge moves (the confirmation dialog's preview, and the outcome recorded). */
export interface ContactMergeCounts {
  tickets: number;
  messages: number;
  notes: number;
  schedules: number;
  listMemberships: number;
  extraInfo: number;
  /** the other contact's open tickets closed because the kept one has an open ticket on that connection */
  closedTickets: number;
}

export interface ContactMergeResult {
  contact: Contact;
  mergedId: number;
  counts: ContactMergeCounts;
}
