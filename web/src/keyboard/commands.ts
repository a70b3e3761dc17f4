import { useEffect } from 'react';
import type { QuickReply } from '../messages/composer-rules';

/**
 * What the page on screen can do now, for the shortcuts and the command bar: the open ticket's
 * actions (its buttons' own handlers), its composer, and the ticket list being shown. Each part is
 * provided by the component that owns it while it is mounted, so a shortcut runs the same code as
 * the button and never an API call of its own.
 */
export interface CommandSlots {
  ticket: {
    id: number;
    uuid: string;
    /** present while the button is: accept a pending ticket, resolve an open one */
    accept?(): void;
    resolve?(): void;
    /** opens the transfer dialog */
    transfer?(): void;
  };
  composer: {
    focus(): void;
    hasFocus(): boolean;
    /** the quick message as the composer's `/` suggestions insert it */
    insertQuickMessage(quick: QuickReply): void;
  };
  list: {
    /** opens the next (1) or previous (-1) ticket of the list shown */
    step(by: 1 | -1): void;
  };
}

const slots: { [K in keyof CommandSlots]?: CommandSlots[K] } = {};
/** set when the user stepped to another ticket from its composer: the next composer takes the focus */
let composerFocusPending = false;

export const commands = (): Readonly<typeof slots> => slots;

export function provideCommands<K extends keyof CommandSlots>(slot: K, value: CommandSlots[K]) {
  slots[slot] = value;
  if (slot === 'composer' && composerFocusPending) {
    composerFocusPending = false;
    (value as CommandSlots['composer']).focus();
  }
  return () => {
    if (slots[slot] === value) delete slots[slot];
  };
}

/** Keeps the composer focused across a step to the next ticket. */
export const focusComposerWhenShown = () => {
  composerFocusPending = true;
};

/** Provides a slot while the calling component is mounted (its value is taken afresh on every render). */
export function useProvideCommands<K extends keyof CommandSlots>(slot: K, value: CommandSlots[K] | null) {
  useEffect(() => (value ? provideCommands(slot, value) : undefined));
}

/** Renders nothing; provides a slot from inside JSX (where a component's handlers are defined). */
export function ProvideCommands<K extends keyof CommandSlots>({
  slot,
  value,
}: {
  slot: K;
  value: CommandSlots[K] | null;
}) {
  useProvideCommands(slot, value);
  return null;
}
