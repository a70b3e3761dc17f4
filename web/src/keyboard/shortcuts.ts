/**
 * The keyboard shortcuts (issue 40 item 5): which key does what, read by the shell's listener
 * (layout/KeyboardShortcuts.tsx), the help dialog and the buttons' aria-keyshortcuts. It lives in the
 * ticket page's first download, so it stays a table and two small functions.
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

/** A field the user types into: a letter there is text, not a command. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.tagName) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(
    (el as HTMLInputElement).type,
  );
}

type KeyPress = Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'> & {
  target: EventTarget | null;
};

/**
 * What a key press asks for: a shortcut, a macro (`alt+1`..`alt+9`, matched on the physical key, as
 * a Mac's Option+1 types "¡"), or nothing. Letters count only without modifiers and outside fields.
 */
export function shortcutOf(e: KeyPress): ShortcutId | { macro: string } | null {
  const command = e.ctrlKey || e.metaKey;
  if (command && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') return 'commandBar';
  if (command) return null;
  if (e.altKey) {
    if (e.shiftKey) return null;
    if (e.key === 'ArrowDown') return 'nextTicket';
    if (e.key === 'ArrowUp') return 'previousTicket';
    const digit = /^Digit([1-9])$/.exec(e.code);
    return digit ? { macro: `alt+${digit[1]}` } : null;
  }
  if (isTypingTarget(e.target)) return null;
  if (e.key === '?') return 'help';
  const letter = e.key.toUpperCase();
  if (e.shiftKey || !/^[A-Z]$/.test(letter)) return null;
  return SHORTCUTS.find((s) => s.keys.includes(letter))?.id ?? null;
}
