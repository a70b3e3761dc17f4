import { z } from 'zod';
import { MSG, idParam } from './common';

/**
 * The audit trail as the API lists it (`GET /audit`) and the web shows it. The actions are the ones
 * `recordAudit` writes (functions/lib/audit/record.ts; a type check there keeps both lists equal).
 */
export const AUDIT_ACTIONS = [
  'auth.signin_failed',
  'auth.signin_blocked',
  'auth.password_changed',
  'auth.email_changed',
  'auth.logout_all',
  'user.created',
  'user.deleted',
  'user.role_changed',
  'user.updated',
  'settings.changed',
  'plan.changed',
  'company.created',
  'company.updated',
  'company.status_changed',
  'company.due_date_changed',
  'company.deleted',
  'connection.token_rotated',
  'connection.credentials_changed',
  'connection.transport_attached',
  'connection.transport_detached',
  'api_token.used',
  'data.exported',
  'data.imported',
  'payment_settings.changed',
  'integration.url_changed',
  'queue.redriven',
  'ticket.taken_over',
  'contact.merged',
  'ai.budget_spent',
  'knowledge.created',
  'knowledge.updated',
  'knowledge.deleted',
  'custom_field.created',
  'custom_field.updated',
  'custom_field.deleted',
  'automation_rule.created',
  'automation_rule.updated',
  'automation_rule.deleted',
] as const;
export type AuditActionName = (typeof AUDIT_ACTIONS)[number];

/** The most days one request of the platform-wide trail walks (one index partition per day). */
export const AUDIT_MAX_RANGE_DAYS = 31;

/** A calendar day `YYYY-MM-DD` (São Paulo time) that exists. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, MSG.invalid)
  .refine((d) => {
    const at = new Date(`${d}T12:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === d;
  }, MSG.invalid);

/**
 * `GET /audit`: newest first, by cursor. `from`/`to` are whole São Paulo days (both included).
 * `companyId` is for the super user (another company's trail); without it the super user reads every
 * company's, at most AUDIT_MAX_RANGE_DAYS days per request (the last ones when no range is given).
 */
export const AuditQuery = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { error: MSG.invalid }).optional(),
    actorId: idParam.optional(),
    from: day.optional(),
    to: day.optional(),
    companyId: idParam.optional(),
    cursor: z.string().max(4000).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['from'], message: MSG.invalid });
export type AuditQuery = z.infer<typeof AuditQuery>;

export interface AuditRow {
  id: string;
  /** ISO instant (UTC) */
  at: string;
  companyId: number;
  action: AuditActionName;
  actorId: number | null;
  actorName: string | null;
  address: string | null;
  target: { type: string; id: string | number; name?: string } | null;
  /** field -> { from, to } or a detail; secrets arrive masked (`••••1234`) */
  changes: Record<string, unknown> | null;
}

export interface AuditPage {
  entries: AuditRow[];
  hasMore: boolean;
  cursor?: string;
}
