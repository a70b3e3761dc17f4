import { z } from 'zod';
import { RECURRENCES, LANGUAGES } from '../constants';
import { PROFILES } from '../permissions';
import { bodyId, email, name2to50, strongPassword, MSG } from './common';
import { PUSH_ENDPOINT_MAX } from './push';

/** New passwords (signup, user modal): 8 to 50 characters. Login accepts older, shorter ones. */
export const password8to50 = z.string({ error: MSG.required }).min(8, MSG.short).max(50, MSG.long);

export const Plan = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number().int(),
  connections: z.number().int(),
  queues: z.number().int(),
  value: z.number(),
  useCampaigns: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  /** plans stored before automation rules read as without them */
  useAutomation: z.boolean().optional(),
  /** issue 39: AI model calls a company may make per month (absent or 0: unlimited) */
  aiCallsPerMonth: z.number().int().optional(),
});
export type Plan = z.infer<typeof Plan>;

export const Setting = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof Setting>;

export const Company = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  planId: z.number(),
  status: z.boolean(),
  dueDate: z.string().nullable(),
  recurrence: z.enum(RECURRENCES),
  campaignsEnabled: z.boolean().optional(),
  /** billing name, CPF/CNPJ digits and address (management.md 3; the checkout's data step) */
  billingName: z.string().nullable().optional(),
  document: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  address2: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  zipcode: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
});
export type Company = z.infer<typeof Company>;

export const AllTicket = z.enum(['enabled', 'desabled']);

export const User = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  allTicket: AllTicket,
  whatsappId: z.number().nullable(),
  queueIds: z.array(z.number()),
  /** sees tickets that have no queue */
  showNoQueue: z.boolean().optional(),
  /** most open tickets automatic assignment gives them (issue 24); null or absent: no limit */
  maxOpenTickets: z.number().nullable().optional(),
  language: z.enum(LANGUAGES).optional(),
  online: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

export const LoginBody = z.object({
  email: email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
});

/** DELETE /auth/logout: optionally this browser's push endpoint, whose subscription ends with the session. */
export const LogoutBody = z.object({
  pushEndpoint: z.string().max(PUSH_ENDPOINT_MAX, MSG.long).optional(),
});
export type LogoutBody = z.infer<typeof LogoutBody>;

export const SignupBody = z.object({
  companyName: z.string({ error: MSG.required }).trim().min(2, MSG.short).max(100, MSG.long),
  name: name2to50,
  email,
  password: password8to50,
  phone: z
    .string()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().max(11, MSG.long))
    .optional(),
  planId: bodyId,
  /** the spec's signup form may carry a referral company id from the query string */
  companyId: bodyId.optional(),
});

export const ForgetPasswordParams = z.object({ email });
export const ResetPasswordBody = z.object({
  email,
  token: z.string().trim().min(4).max(20),
  password: strongPassword,
});
