import { DEFAULT_TIME_ZONE, formatLocal, localClock } from './dates';

/**
 * Message variables (attendance.md section 9; management.md "Schedule message variables"):
 * `{{name}}`, `{{firstName}}`, `{{ms}}` (greeting by the hour), `{{protocol}}`, `{{date}}`
 * (DD/MM/YYYY), `{{hora}}` (HH:mm) and `{{contact.<key>}}` (a custom field, issue 40). Pure: schedules, campaigns and the chatbot share it.
 */
export interface VariableContext {
  contactName?: string | null;
  now: Date;
  protocol?: string | number | null;
  timeZone?: string;
  /** `{{contact.<key>}}`: the contact's custom fields as text (custom-fields.ts `contactVariables`) */
  contactFields?: Record<string, string>;
}

/** The `{{protocol}}` of a ticket's message: the day (UTC) and the ticket's number. */
export const protocolOf = (now: Date, ticketId: number) =>
  `${now.toISOString().slice(0, 10).replace(/-/g, '')}${ticketId}`;

/** Greeting by the local hour, as the product words it. */
export function greetingFor(hour: number): string {
  if (hour >= 6 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  if (hour >= 18) return 'Boa noite';
  return 'Boa madrugada';
}

export function fillVariables(text: string, ctx: VariableContext): string {
  const name = (ctx.contactName ?? '').trim();
  const zone = ctx.timeZone ?? DEFAULT_TIME_ZONE;
  // a Map: `{{constructor}}` in a message is no variable of ours
  const values = new Map<string, string>([
    ['name', name],
    ['firstname', name.split(/\s+/)[0] ?? ''],
    ['ms', greetingFor(localClock(ctx.now, zone).hour)],
    ['protocol', ctx.protocol === undefined || ctx.protocol === null ? '' : String(ctx.protocol)],
    ['date', formatLocal(ctx.now, 'dd/MM/yyyy', zone)],
    ['hora', formatLocal(ctx.now, 'HH:mm', zone)],
  ]);
  for (const [key, value] of Object.entries(ctx.contactFields ?? {})) values.set(`contact.${key}`, value);
  // Unknown variables stay as written: they may belong to campaign variables filled elsewhere.
  return text.replace(/\{\{\s*(\w+(?:\.\w+)?)\s*\}\}/g, (whole, key: string) => values.get(key.toLowerCase()) ?? whole);
}
