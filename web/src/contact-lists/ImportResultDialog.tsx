import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ContactListImportResult } from '#shared/schemas/contact-lists';
import { importError } from './contact-list-rules';

/** What an import did: how many rows became items, and every refused row with its line (never dropped silently). */
export function ImportResultDialog({ result, onClose }: { result: ContactListImportResult | null; onClose(): void }) {
  const { t } = useTranslation(['contactLists', 'common', 'errors']);
  const reason = (error: string) => {
    const e = importError(error);
    if (e.kind === 'code') return t(`errors:${e.code}`, { defaultValue: e.code });
    if (e.kind === 'field')
      return t('items.result.fieldError', {
        field: t(`items.modal.${e.field}`),
        message: t(`common:validation.${e.message}`, { defaultValue: e.message }),
      });
    return e.text;
  };
  return (
    <Dialog open={result !== null} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="import-result-title">
      <DialogTitle id="import-result-title">{t('items.result.title')}</DialogTitle>
      <DialogContent dividers>
        {result && (
          <>
            <Alert severity={result.errors.length ? 'warning' : 'success'} sx={{ mb: 2 }}>
              {t('items.result.summary', { created: result.created, total: result.total })}
            </Alert>
            {result.errors.length === 0 ? (
              <Typography color="text.secondary">{t('items.result.none')}</Typography>
            ) : (
              <>
                <Typography variant="subtitle2" gutterBottom>
                  {t('items.result.errors')} ({result.errors.length})
                </Typography>
                <Table size="small" aria-label={t('items.result.errors')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('items.result.line')}</TableCell>
                      <TableCell>{t('items.result.name')}</TableCell>
                      <TableCell>{t('items.result.number')}</TableCell>
                      <TableCell>{t('items.result.error')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {result.errors.map((e) => (
                      <TableRow key={e.line}>
                        <TableCell>{e.line}</TableCell>
                        <TableCell>{e.name}</TableCell>
                        <TableCell>{e.number}</TableCell>
                        <TableCell>{reason(e.error)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
