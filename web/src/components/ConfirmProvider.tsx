import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

type Ask = (opts: { title?: string; message: string; confirmLabel?: string }) => Promise<boolean>;
const Ctx = createContext<Ask>(async () => false);

/** The confirmation dialog of 2.13 (cancel/confirm), as a promise: `if (await confirm({ message })) ...`. */
export const useConfirm = () => useContext(Ctx);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ title?: string; message: string; confirmLabel?: string } | null>(null);
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
      <Dialog open={Boolean(state)} onClose={() => close(false)} aria-labelledby="confirm-title">
        <DialogTitle id="confirm-title">{state?.title ?? t('confirm.title')}</DialogTitle>
        <DialogContent>
          <Typography>{state?.message}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => close(false)}>{t('buttons.cancel')}</Button>
          <Button variant="contained" color="error" onClick={() => close(true)} autoFocus>
            {state?.confirmLabel ?? t('buttons.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Ctx.Provider>
  );
}
