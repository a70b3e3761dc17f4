import { commands, focusComposerWhenShown } from './commands';
import { SHORTCUTS, type ShortcutId } from './shortcuts';

/**
 * What the shortcuts do (issue 40 item 5): the shell's listener (layout/KeyboardShortcuts.tsx)
 * fetches this just after the page shows and hands it every key press but Ctrl/Cmd-K.
 */

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

/** An open dialog, menu or list box over the page takes the keys (a letter there picks, Alt+↓ opens). */
const overlayOpen = (target: EventTarget | null) =>
  Boolean(
    (target as HTMLElement | null)?.closest?.('[role="dialog"],[role="menu"],[role="listbox"],[role="combobox"]') ||
      document.querySelector('.MuiModal-root,[cmdk-dialog]'),
  );

/**
 * Runs the shortcut a key press asks for with the handlers the page provides (keyboard/commands.ts),
 * the buttons' own. Returns 'help' when the help dialog should open (the shell shows it).
 */
export function handleKey(e: KeyboardEvent): 'help' | undefined {
  const asked = shortcutOf(e);
  if (!asked || asked === 'commandBar' || e.repeat || overlayOpen(e.target)) return;
  const { ticket, composer, list } = commands();
  const run = (action: (() => void) | undefined) => {
    if (!action) return;
    e.preventDefault();
    action();
  };
  if (typeof asked === 'object') {
    if (ticket) run(() => void import('./CommandBar').then((m) => m.runMacroByShortcut(asked.macro, ticket.id)));
  } else if (asked === 'help') {
    e.preventDefault();
    return 'help';
  } else if (asked === 'nextTicket' || asked === 'previousTicket')
    run(
      list &&
        (() => {
          if (composer?.hasFocus()) focusComposerWhenShown();
          list.step(asked === 'nextTicket' ? 1 : -1);
        }),
    );
  else if (asked === 'focusComposer') run(composer?.focus);
  else run(ticket?.[asked]);
}
