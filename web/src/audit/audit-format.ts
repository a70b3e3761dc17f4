import type { AuditRow } from '#shared/schemas/audit';

/** How the audit page words an entry: the functions take the translator, so they stay testable. */
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The entry's time in the browser's own locale and time zone. */
export const formatAuditTime = (at: string, locale?: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(at));

const MAX_VALUE = 60;

/** A recorded value in a few characters: null/empty as a dash, objects as compact JSON, long text cut. */
export function formatValue(value: unknown, t: Translate): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return t(value ? 'values.yes' : 'values.no');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.length ? formatValue(value.join(', '), t) : '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const isChange = (v: unknown): v is { from?: unknown; to?: unknown } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && ('from' in v || 'to' in v);

/** Values the server records as codes (an import's source, the credentials an edit changed), in words. */
const CODED_FIELDS = new Set(['source', 'changedFields']);

/**
 * The changes as short lines: the operation of a plan change (`op`) first, in words; then
 * `field: from → to` for a change, `field: value` for a detail, in the order of the translated field
 * names (the stored map keeps none). Field names are shown translated when known.
 */
export function summarizeChanges(changes: AuditRow['changes'], t: Translate): string[] {
  if (!changes) return [];
  const field = (name: string) => t(`fields.${name}`, { defaultValue: name });
  const { op, ...rest } = changes;
  const lines = Object.entries(rest)
    .sort(([a], [b]) => field(a).localeCompare(field(b)))
    .map(([name, value]) => line(name, value));
  return typeof op === 'string' ? [t(`ops.${op}`, { defaultValue: op }), ...lines] : lines;

  function line(name: string, value: unknown) {
    const code = (v: string) => t(`codes.${v}`, { defaultValue: v });
    if (CODED_FIELDS.has(name) && typeof value === 'string') return `${field(name)}: ${code(value)}`;
    if (CODED_FIELDS.has(name) && Array.isArray(value) && value.every((v) => typeof v === 'string'))
      return `${field(name)}: ${value.map(code).join(', ')}`;
    if (isChange(value)) {
      if (!('from' in value)) return `${field(name)}: ${formatValue(value.to, t)}`;
      return `${field(name)}: ${formatValue(value.from, t)} → ${formatValue(value.to, t)}`;
    }
    return `${field(name)}: ${formatValue(value, t)}`;
  }
}

/** `Plan "Gold"`, `Connection #3`, `Contacts` (a whole collection has id `all`). */
export function formatTarget(target: AuditRow['target'], t: Translate): string {
  if (!target) return '—';
  const kind = t(`targets.${target.type}`, { defaultValue: target.type });
  if (target.name) return `${kind} "${target.name}"`;
  return target.id === 'all' ? kind : `${kind} #${target.id}`;
}

/** Who acted: the name recorded then, else the id, else the system / an anonymous caller. */
export function formatActor(entry: Pick<AuditRow, 'actorId' | 'actorName'>, t: Translate): string {
  if (entry.actorName) return entry.actorName;
  return entry.actorId ? `#${entry.actorId}` : t('anonymous');
}
