import { randomUUID } from 'node:crypto';
import { maskSecret } from '#shared/settings-policy';
import { putItem } from '../db';
import { nowIso, ttlIn } from '../keys';
import { log } from '../log';

/**
 * The audit trail's one write: who did what to which thing, when, from which address, and what
 * changed (secrets masked). Kept AUDIT_RETENTION_DAYS by the table's TTL. A failed write is logged
 * and never fails the action it records.
 *
 * Keys: `C#<companyId>#AUDIT` / `A#<at>#<id>` (a company's trail, newest last), and on gsi1
 * `AUDIT#<YYYY-MM-DD>` / `<at>#<companyId>` (the platform's trail by day, for the super user).
 */
export const AUDIT_RETENTION_DAYS = 180;

/** A company's trail, sorted by time: every key of the trail is built here and in `auditDayKeys`. */
export const auditPartition = (companyId: number) => `C#${companyId}#AUDIT`;
export const auditSortKey = (at: string, id: string) => `A#${at}#${id}`;
/** The platform's trail of one UTC day (gsi1), sorted by time then company. */
export const auditDayPartition = (utcDay: string) => `AUDIT#${utcDay}`;
export const auditDaySortKey = (at: string, companyId: number) => `${at}#${companyId}`;

export type AuditAction =
  | 'auth.signin_failed'
  | 'auth.signin_blocked'
  | 'auth.password_changed'
  | 'auth.email_changed'
  | 'auth.logout_all'
  | 'user.created'
  | 'user.deleted'
  | 'user.role_changed'
  | 'user.updated'
  | 'settings.changed'
  | 'plan.changed'
  | 'company.created'
  | 'company.updated'
  | 'company.status_changed'
  | 'company.due_date_changed'
  | 'company.deleted'
  | 'connection.token_rotated'
  | 'connection.credentials_changed'
  | 'connection.transport_attached'
  | 'connection.transport_detached'
  | 'api_token.used'
  | 'data.exported'
  | 'data.imported'
  | 'payment_settings.changed'
  | 'integration.url_changed'
  | 'queue.redriven'
  | 'ticket.taken_over'
  | 'contact.merged'
  | 'ai.budget_spent'
  | 'knowledge.created'
  | 'knowledge.updated'
  | 'knowledge.deleted'
  | 'custom_field.created'
  | 'custom_field.updated'
  | 'custom_field.deleted'
  | 'automation_rule.created'
  | 'automation_rule.updated'
  | 'automation_rule.deleted';

export interface AuditEntry {
  /** the company whose trail holds the entry (the platform company for platform-wide changes) */
  companyId: number;
  action: AuditAction;
  /** who acted: null for an anonymous caller (a failed sign-in) or the system */
  actorId?: number | null;
  actorName?: string | null;
  /** the client's address (clientAddress in origin.ts) */
  address?: string | null;
  target?: { type: string; id: string | number; name?: string };
  /** field -> { from, to }, or any small detail; secrets are masked before storing */
  changes?: Record<string, unknown>;
}

const SECRET_NAME = /pass(word)?|secret|token|apikey|api_key|key$|^key|credential|authorization|cookie/i;

/** A value kept only as a hint of its end, as routes show secrets (maskSecret). */
const maskValue = (v: unknown) =>
  v === null || v === undefined || v === '' ? v : maskSecret(typeof v === 'string' ? v : JSON.stringify(v));

/** Replaces every value whose field name reads as a secret, at any depth. */
export function maskSecrets(value: unknown, name = ''): unknown {
  if (name && SECRET_NAME.test(name)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && ('from' in value || 'to' in value)) {
      const change = value as { from?: unknown; to?: unknown };
      return { from: maskValue(change.from), to: maskValue(change.to) };
    }
    return maskValue(value);
  }
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]));
  return value;
}

export async function recordAudit(entry: AuditEntry): Promise<void> {
  const at = nowIso();
  const id = randomUUID();
  try {
    await putItem({
      pk: auditPartition(entry.companyId),
      sk: auditSortKey(at, id),
      gsi1pk: auditDayPartition(at.slice(0, 10)),
      gsi1sk: auditDaySortKey(at, entry.companyId),
      id,
      at,
      companyId: entry.companyId,
      action: entry.action,
      actorId: entry.actorId ?? null,
      actorName: entry.actorName ?? null,
      address: entry.address ?? null,
      target: entry.target ?? null,
      changes: entry.changes ? maskSecrets(entry.changes) : null,
      ttl: ttlIn(AUDIT_RETENTION_DAYS * 24 * 3600),
    });
  } catch (err) {
    log.error('audit entry not recorded', {
      companyId: entry.companyId,
      action: entry.action,
      error: (err as Error).message,
    });
  }
}
