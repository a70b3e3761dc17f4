import { z } from 'zod';
import { MSG, bodyId, cursorQuery, name2to50 } from './common';

/**
 * Contact lists and their items (management.md "Contact lists", 3, 5, 7): the audience of a
 * campaign. An item is not a contact: it becomes one (and gets a ticket) only when a campaign
 * sends to it. `isWhatsappValid` is null until the session runner has checked the number.
 */
export interface ContactList {
  id: number;
  companyId: number;
  name: string;
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
  /** why the list's unchecked items wait (the connection's daily check budget, or a restriction), and until when */
  checksWaitReason?: 'checkBudget' | 'reachoutLock' | 'restricted' | null;
  checksResumeAt?: string | null;
}

/** GET /contact-lists/{id}: the list, and the number checks its items would use now (null: no connected connection). */
export interface ContactListDetail extends ContactList {
  numberChecks: {
    whatsappId: number;
    whatsappName: string;
    dailyBudget: number;
    checksLeftToday: number;
  } | null;
}

export interface ContactListItem {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
  createdAt: string;
  updatedAt: string;
}

export const ContactListBody = z.object({ name: name2to50 });

export const ContactListsQuery = cursorQuery.extend({
  searchParam: z.string().trim().toLowerCase().max(100).optional(),
});

/** Item form (management.md 5): name 2-50, number 8-50 (digits kept), e-mail valid when given. */
export const itemNumber = z
  .string({ error: MSG.required })
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().min(8, MSG.short).max(50, MSG.long));
export const itemEmail = z
  .union([z.literal(''), z.string().trim().toLowerCase().email(MSG.email).max(254, MSG.long)])
  .optional()
  .nullable()
  .transform((v) => v ?? '');

export const ContactListItemBody = z.object({
  name: name2to50,
  number: itemNumber,
  email: itemEmail,
  contactListId: bodyId,
});
export const ContactListItemUpdateBody = ContactListItemBody.omit({ contactListId: true }).partial();

export const ContactListItemsQuery = cursorQuery.extend({
  contactListId: z.coerce.number().int().positive(),
  searchParam: z.string().trim().toLowerCase().max(100).optional(),
});

/** Most rows one spreadsheet import takes. */
export const CONTACT_LIST_IMPORT_MAX_ROWS = 20_000;

/** POST /contact-lists/{id}/upload: how many items were added, and every refused row with its line. */
export interface ContactListImportResult {
  total: number;
  created: number;
  errors: { line: number; name: string; number: string; error: string }[];
}

/** Columns of the sample spreadsheet (GET /contact-lists/sample); the import reads these headers. */
export const CONTACT_LIST_SAMPLE_COLUMNS = ['name', 'number', 'email'] as const;
