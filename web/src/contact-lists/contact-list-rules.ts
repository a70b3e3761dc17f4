import type { ContactListDetail, ContactListItem } from '#shared/schemas/contact-lists';

/** Contact list import accepts .xls or .xlsx (management.md 5). */
export const IMPORT_ACCEPT =
  '.xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const isSpreadsheet = (fileName: string) => /\.(xlsx?)$/i.test(fileName);

/** The row icon: checked valid, checked invalid, or not checked yet (the runner checks in the background). */
export type Validity = 'valid' | 'invalid' | 'unchecked';
export const validity = (item: Pick<ContactListItem, 'isWhatsappValid'>): Validity =>
  item.isWhatsappValid === true ? 'valid' : item.isWhatsappValid === false ? 'invalid' : 'unchecked';

/**
 * An import row's refusal as the server words it (`name: short`, `number: long`, `email: email`,
 * or a catalogued `ERR_*` code), as the parts the page translates.
 */
export function importError(
  error: string,
): { kind: 'code'; code: string } | { kind: 'field'; field: string; message: string } | { kind: 'text'; text: string } {
  if (/^ERR_[A-Z_]+$/.test(error)) return { kind: 'code', code: error };
  const m = /^(name|number|email): (\w+)$/.exec(error);
  if (m) return { kind: 'field', field: m[1], message: m[2] };
  return { kind: 'text', text: error };
}

/** A live item event concerns the open list only when it names it (or names no list: an update of a row we hold). */
export const concernsList = (ev: { contactListId?: number; record?: { contactListId: number } }, listId: number) =>
  (ev.record?.contactListId ?? ev.contactListId ?? listId) === listId;

/** Live item updates are applied together this often (an import brings one check per row). */
export const LIVE_BATCH_MS = 200;

/** Keeps the newest live copy of each item (by updatedAt). */
export function mergeLive(current: Map<number, ContactListItem>, batch: ContactListItem[]) {
  const next = new Map(current);
  for (const r of batch) {
    const held = next.get(r.id);
    if (!held || held.updatedAt <= r.updatedAt) next.set(r.id, r);
  }
  return next;
}

/** The rows as shown: a live copy newer than the fetched row replaces it. */
export const overlayLive = <T extends Pick<ContactListItem, 'id' | 'updatedAt'>>(items: T[], live: Map<number, T>) =>
  items.map((i) => {
    const l = live.get(i.id);
    return l && l.updatedAt >= i.updatedAt ? { ...i, ...l } : i;
  });

/**
 * The notice about the list's number checks: why they wait and until when (a warning), or how many
 * the connection may still make today; none while no connection is connected.
 */
export function checksNotice(
  list: Pick<ContactListDetail, 'numberChecks' | 'checksWaitReason' | 'checksResumeAt'>,
): { severity: 'info' | 'warning'; key: string; values: Record<string, string | number> } | null {
  const checks = list.numberChecks;
  if (list.checksWaitReason && list.checksResumeAt)
    return {
      severity: 'warning',
      key: `items.checks.wait.${list.checksWaitReason}`,
      values: { at: new Date(list.checksResumeAt).toLocaleString(), connection: checks?.whatsappName ?? '' },
    };
  if (!checks) return null;
  return {
    severity: checks.checksLeftToday ? 'info' : 'warning',
    key: 'items.checks.left',
    values: { count: checks.checksLeftToday, budget: checks.dailyBudget, connection: checks.whatsappName },
  };
}
