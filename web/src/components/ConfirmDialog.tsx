import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

export interface ConfirmRequest {
  title?: string;
  message: string;
  confirmLabel?: string;
}

/** The dialog ConfirmProvider shows: cancel or confirm. */
export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose(value: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={Boolean(request)} onClose={() => onClose(false)} aria-labelledby="confirm-title">
      <DialogTitle id="confirm-title">{request?.title ?? t('confirm.title')}</DialogTitle>
      <DialogContent>
        <Typography>{request?.message}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{t('buttons.cancel')}</Button>
        <Button variant="contained" color="error" onClick={() => onClose(true)} autoFocus>
          {request?.confirmLabel ?? t('buttons.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
