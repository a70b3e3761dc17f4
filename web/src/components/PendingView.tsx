import type { ReactNode } from 'react';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/toast-error';

/**
 * What a dialog's list shows before it has rows: the server's error (translated), or a spinner
 * while it loads. `<PendingView error={error} />` once `error || isLoading || !data`.
 */
export function PendingView({ error }: { error?: unknown }) {
  const { t } = useTranslation();
  if (error)
    return (
      <Alert severity="error" role="alert">
        {errorMessage(error) ?? t('errors:ERR_INTERNAL_SERVER_ERROR')}
      </Alert>
    );
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
      <CircularProgress aria-label={t('common:buttons.loading')} />
    </Box>
  );
}

/** A list with no rows: its sentence, centred and muted. */
export const EmptyText = ({ children }: { children: ReactNode }) => (
  <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
    {children}
  </Typography>
);
