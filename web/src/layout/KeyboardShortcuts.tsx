import { lazy, useEffect, useState } from 'react';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { commands, focusComposerWhenShown } from '../keyboard/commands';
import { shortcutOf } from '../keyboard/shortcuts';

// the command bar and the help dialog load on first use: the shell holds only this listener (issue 40)
const CommandBar = lazy(() => import('../keyboard/CommandBar'));
const ShortcutsHelp = lazy(() => import('../keyboard/ShortcutsHelp'));

type Shown = 'bar' | 'help' | null;
let show: (what: Shown) => void = () => undefined;
/** Opens the command bar or the shortcuts' help from elsewhere in the shell (the user menu). */
export const openCommandBar = () => show('bar');
export const openShortcutsHelp = () => show('help');

/** Inside a dialog, a menu or a list box the keys are theirs (a letter there picks, Alt+↓ opens). */
const inOverlay = (target: EventTarget | null) =>
  Boolean(
    (target as HTMLElement | null)?.closest?.('[role="dialog"],[role="menu"],[role="listbox"],[role="combobox"]'),
  );

/** The shell's keyboard shortcuts (keyboard/shortcuts.ts): Ctrl/Cmd-K, ?, and the open ticket's actions. */
export function KeyboardShortcuts() {
  const [shown, setShown] = useState<Shown>(null);
  useEffect(() => {
    show = setShown;
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const asked = shortcutOf(e);
      if (!asked) return;
      if (asked === 'commandBar') {
        e.preventDefault();
        setShown((cur) => (cur === 'bar' ? null : 'bar'));
        return;
      }
      // an open dialog, menu or drawer over the page takes the keys, not the ticket behind it
      if (e.repeat || inOverlay(e.target) || document.querySelector('.MuiModal-root')) return;
      const { ticket, composer, list } = commands();
      const run = (action: (() => void) | undefined) => {
        if (!action) return;
        e.preventDefault();
        action();
      };
      if (typeof asked === 'object') {
        if (ticket)
          run(() => void import('../keyboard/CommandBar').then((m) => m.runMacroByShortcut(asked.macro, ticket.id)));
      } else if (asked === 'help') run(() => setShown('help'));
      else if (asked === 'nextTicket' || asked === 'previousTicket')
        run(
          list &&
            (() => {
              if (composer?.hasFocus()) focusComposerWhenShown();
              list.step(asked === 'nextTicket' ? 1 : -1);
            }),
        );
      else if (asked === 'focusComposer') run(composer?.focus);
      else run(ticket?.[asked]);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const close = () => setShown(null);
  return (
    <>
      <MountWhenOpened open={shown === 'bar'}>
        <CommandBar open={shown === 'bar'} onClose={close} onHelp={() => setShown('help')} />
      </MountWhenOpened>
      <MountWhenOpened open={shown === 'help'}>
        <ShortcutsHelp open={shown === 'help'} onClose={close} />
      </MountWhenOpened>
    </>
  );
}
