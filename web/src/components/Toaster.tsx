import { useSyncExternalStore } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { TOAST_CLOSE_MS } from '#shared/constants';
import { toasts } from './toast';

export function Toaster() {
  const list = useSyncExternalStore(toasts.subscribe, toasts.current);
  const top = list[0];
  if (!top) return null;
  return (
    <Snackbar
      key={top.id}
      open
      autoHideDuration={TOAST_CLOSE_MS}
      onClose={() => toasts.dismiss(top.id)}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={{ top: { xs: 64, sm: 64 } }}
    >
      <Alert severity={top.kind} variant="filled" onClose={() => toasts.dismiss(top.id)} sx={{ width: '100%' }}>
        {top.text}
      </Alert>
    </Snackbar>
  );
}
