import { z } from 'zod';
import { LANGUAGES } from '../constants';
import { PROFILES } from '../permissions';
import { AllTicket } from './accounts';
import { email, name2to50, password5to50, cursorQuery } from './common';

/** The user modal (attendance.md 2.14 and 5). */
const whatsappId = z
  .union([z.coerce.number().int().positive(), z.literal(''), z.null()])
  .transform((v) => (v === '' ? null : v));
const queueIds = z.array(z.coerce.number().int().positive()).max(200);

export const UserCreateBody = z.object({
  name: name2to50,
  email,
  password: password5to50,
  profile: z.enum(PROFILES).optional(),
  allTicket: AllTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  showNoQueue: z.boolean().optional(),
});
export type UserCreateBody = z.infer<typeof UserCreateBody>;

/** Editing: the password is optional (an empty one keeps the current password). */
export const UserUpdateBody = z.object({
  name: name2to50.optional(),
  email: email.optional(),
  password: z.union([password5to50, z.literal('')]).optional(),
  profile: z.enum(PROFILES).optional(),
  allTicket: AllTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  showNoQueue: z.boolean().optional(),
});
export type UserUpdateBody = z.infer<typeof UserUpdateBody>;

export const UsersQuery = cursorQuery.extend({ searchParam: z.string().trim().toLowerCase().max(100).optional() });

export const LanguageParams = z.object({ lang: z.enum(LANGUAGES) });
