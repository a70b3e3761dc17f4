import { z } from 'zod';
import { LANGUAGES } from '../constants';
import { PROFILES } from '../permissions';
import { AllTicket, password8to50 } from './accounts';
import { MSG, bodyId, bodyInt, email, name2to50, cursorQuery, nullableBodyId } from './common';

/** The user modal (attendance.md 2.14 and 5). */
const whatsappId = nullableBodyId;
const queueIds = z.array(bodyId).max(200);
/** The most open tickets automatic assignment gives the user (issue 24); null or '' is no limit. */
export const MAX_OPEN_TICKETS_LIMIT = 1000;
export const maxOpenTickets = z.union(
  [
    z.null(),
    z.literal('').transform(() => null),
    bodyInt.pipe(z.number().min(1, MSG.invalid).max(MAX_OPEN_TICKETS_LIMIT, MSG.invalid)),
  ],
  { error: MSG.invalid },
);

export const UserCreateBody = z.object({
  name: name2to50,
  email,
  password: password8to50,
  profile: z.enum(PROFILES).optional(),
  allTicket: AllTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  showNoQueue: z.boolean().optional(),
  maxOpenTickets: maxOpenTickets.optional(),
});
export type UserCreateBody = z.infer<typeof UserCreateBody>;

/** Editing: the password is optional (an empty one keeps the current password). */
export const UserUpdateBody = z.object({
  name: name2to50.optional(),
  email: email.optional(),
  password: z.union([password8to50, z.literal('')]).optional(),
  profile: z.enum(PROFILES).optional(),
  allTicket: AllTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  showNoQueue: z.boolean().optional(),
  maxOpenTickets: maxOpenTickets.optional(),
});
export type UserUpdateBody = z.infer<typeof UserUpdateBody>;

export const UsersQuery = cursorQuery.extend({ searchParam: z.string().trim().toLowerCase().max(100).optional() });

export const LanguageParams = z.object({ lang: z.enum(LANGUAGES) });
