import { lazy, useEffect, useState } from 'react';
import { MountWhenOpened } from '../components/MountWhenOpened';

// the command bar and the help load on first use; what the other shortcuts do just after the page
// shows (keyboard/dispatch.ts): the shell holds only this listener (issue 40 item 5)
const CommandBar = lazy(() => import('../keyboard/CommandBar'));
const ShortcutsHelp = lazy(() => import('../keyboard/ShortcutsHelp'));
let handleKey: ((e: KeyboardEvent) => 'help' | undefined) | undefined;

type Shown = 'bar' | 'help' | null;
let show: (what: Shown) => void = () => undefined;
/** Opens the shortcuts' help from elsewhere in the shell (the user menu). */
export const openShortcutsHelp = () => show('help');

/** The shell's keyboard shortcuts (keyboard/shortcuts.ts): Ctrl/Cmd-K, ?, and the open ticket's actions. */
export function KeyboardShortcuts() {
  const [shown, setShown] = useState<Shown>(null);
  useEffect(() => {
    show = setShown;
    void import('../keyboard/dispatch').then((m) => {
      handleKey = m.handleKey;
    });
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        // not over another dialog: two focus traps would fight
        if (document.querySelector('.MuiModal-root')) return;
        e.preventDefault();
        setShown((cur) => (cur === 'bar' ? null : 'bar'));
      } else if (handleKey?.(e) === 'help') setShown('help');
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
