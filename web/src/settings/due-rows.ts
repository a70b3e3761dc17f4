import { dueDateColour } from '#shared/schemas/billing';

/** Row backgrounds of management.md 4 "Company due-date row colours" (text stays dark on them). */
export const DUE_BACKGROUND = { yellow: '#fff59d', orange: '#ffcc80', red: '#ef9a9a' } as const;

/** The companies table's row: its colour name (kept on the row for tests) and background, if any. */
export function dueRow(dueDate: string | null | undefined, now = new Date()) {
  const colour = dueDateColour(dueDate, now);
  return { colour, background: colour ? DUE_BACKGROUND[colour] : null };
}
