import { createContext, lazy, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import type { ConfirmRequest } from './ConfirmDialog';
import { MountWhenOpened } from './MountWhenOpened';

// the dialog's code loads with the first question asked, not with the page (issue 25)
const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));

type Ask = (opts: ConfirmRequest) => Promise<boolean>;
const Ctx = createContext<Ask>(async () => false);

/** The confirmation dialog of 2.13 (cancel/confirm), as a promise: `if (await confirm({ message })) ...`. */
export const useConfirm = () => useContext(Ctx);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<(v: boolean) => void>(() => {});
  const ask = useCallback<Ask>(
    (opts) =>
      new Promise((resolve) => {
        resolver.current = resolve;
        setState(opts);
      }),
    [],
  );
  const close = (value: boolean) => {
    resolver.current(value);
    setState(null);
  };
  return (
    <Ctx.Provider value={ask}>
      {children}
      <MountWhenOpened open={state !== null}>
        <ConfirmDialog request={state} onClose={close} />
      </MountWhenOpened>
    </Ctx.Provider>
  );
}
