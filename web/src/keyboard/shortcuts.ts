/**
 * The keyboard shortcuts (issue 40 item 5): which key does what, for the buttons' aria-keyshortcuts,
 * the help dialog and the key handler (dispatch.ts). It lives in the ticket page's first download,
 * so it stays a table.
 *
 * A plain letter never fires while the user types in a field; a shortcut with Ctrl/Cmd or Alt does.
 */
export type ShortcutId =
  | 'commandBar'
  | 'help'
  | 'nextTicket'
  | 'previousTicket'
  | 'accept'
  | 'resolve'
  | 'transfer'
  | 'focusComposer';

/** Each shortcut's key combinations, as aria-keyshortcuts spells them (Control, Alt, Meta; capitals). */
export const SHORTCUTS: readonly { id: ShortcutId; keys: readonly string[] }[] = [
  { id: 'commandBar', keys: ['Control+K', 'Meta+K'] },
  { id: 'help', keys: ['?'] },
  { id: 'nextTicket', keys: ['Alt+ArrowDown', 'J'] },
  { id: 'previousTicket', keys: ['Alt+ArrowUp', 'K'] },
  { id: 'accept', keys: ['A'] },
  { id: 'resolve', keys: ['E'] },
  { id: 'transfer', keys: ['T'] },
  { id: 'focusComposer', keys: ['R'] },
];

/** The aria-keyshortcuts value of a shortcut (its combinations, space separated). */
export const ariaKeys = (id: ShortcutId) => SHORTCUTS.find((s) => s.id === id)?.keys.join(' ');

/** A macro's shortcut (`alt+1`..`alt+9`, shared/schemas/automation.ts) as aria-keyshortcuts spells it. */
export const macroKeys = (shortcut: string) => `Alt+${shortcut.slice(shortcut.indexOf('+') + 1)}`;
