import { useSyncExternalStore } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { TOAST_CLOSE_MS } from '#shared/constants';
import MuiTheme from '../theme/MuiTheme';
import { toasts } from './toast';

/** The toasts (MUI), loaded by ToastHost when the first one is raised. */
export default function Toaster() {
  const list = useSyncExternalStore(toasts.subscribe, toasts.current);
  const top = list[0];
  if (!top) return null;
  return (
    <MuiTheme>
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
    </MuiTheme>
  );
}
