import { slaLevel, type SlaLevel } from '#shared/sla';

/** The SLA fields a ticket carries (shared/schemas/tickets.ts). */
export interface SlaTicket {
  status: string;
  slaStartAt?: string | null;
  slaFirstResponseDueAt?: string | null;
  slaResolutionDueAt?: string | null;
  firstResponseAt?: string | null;
  slaFirstResponseBreached?: boolean;
  slaResolutionBreached?: boolean;
}

export interface Deadline {
  kind: 'firstResponse' | 'resolution';
  dueAt: string;
  level: SlaLevel;
  /** ms left (negative once late) */
  left: number;
}

/**
 * The deadline a ticket's countdown shows at `now`: the first response while none was sent, else
 * the resolution; none for a closed ticket or one without a policy.
 */
export function activeDeadline(t: SlaTicket, now: number): Deadline | null {
  if (t.status === 'closed') return null;
  const first = !t.firstResponseAt && t.slaFirstResponseDueAt;
  const kind = first ? 'firstResponse' : t.slaResolutionDueAt ? 'resolution' : null;
  if (!kind) return null;
  const dueAt = (kind === 'firstResponse' ? t.slaFirstResponseDueAt : t.slaResolutionDueAt)!;
  const breached = kind === 'firstResponse' ? t.slaFirstResponseBreached : t.slaResolutionBreached;
  return { kind, dueAt, level: slaLevel(t.slaStartAt, dueAt, now, breached), left: Date.parse(dueAt) - now };
}

/** A duration for people: `45 s`, `12 min`, `3 h 05 min`, `2 d 4 h` (seconds in). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '-';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** A countdown's clock: `mm:ss` under an hour, else the duration. */
export function formatLeft(ms: number): string {
  const s = Math.floor(Math.abs(ms) / 1000);
  if (s >= 3600) return formatDuration(s);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
