import { useState } from 'react';
import {
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import { useTranslation } from 'react-i18next';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import type { WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { api } from '../api/client';
import { PendingView, EmptyText } from '../components/PendingView';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { usePhone } from '../components/usePhone';
import { formatShortDateTime } from '../lib/format';
import { statusColor } from './template-rules';
import { templatesPath, useTemplates } from './useTemplates';

interface Props {
  /** the connection whose templates are listed; undefined: closed */
  whatsapp: Pick<Whatsapp, 'id' | 'name' | 'templatesSyncedAt'> | undefined;
  /** may sync them (connections-page:editOrDeleteConnection) */
  maySync: boolean;
  onClose(): void;
  /** the templates were synced (here or elsewhere): the connection's sync time changed */
  onSynced(): void;
}

/**
 * A Cloud API connection's message templates (issue 36): every one, sendable or not, with Meta's
 * status and reason, the last sync, and "Sync now" for those who may edit connections.
 */
export default function TemplatesDialog({ whatsapp, maySync, onClose, onSynced }: Props) {
  const { t } = useTranslation(['templates', 'common']);
  const phone = usePhone();
  const { data, error, isLoading, mutate } = useTemplates(whatsapp?.id ?? null, onSynced);
  const [syncing, setSyncing] = useState(false);

  const sync = async () => {
    if (!whatsapp) return;
    setSyncing(true);
    try {
      const synced = await api.post<{ templates: WhatsappTemplate[]; syncedAt: string }>(
        `${templatesPath(whatsapp.id)}/sync`,
      );
      void mutate(synced.templates, { revalidate: false });
      onSynced();
      notify.success(t('list.synced'));
    } catch (err) {
      toastError(err);
    } finally {
      setSyncing(false);
    }
  };

  const list = () => {
    if (error || isLoading || !data) return <PendingView error={error} />;
    if (data.length === 0) return <EmptyText>{t('list.empty')}</EmptyText>;
    return (
      <Table size="small" aria-label={t('list.title', { name: whatsapp?.name })}>
        <TableHead>
          <TableRow>
            <TableCell>{t('list.columns.name')}</TableCell>
            <TableCell>{t('list.columns.language')}</TableCell>
            <TableCell>{t('list.columns.category')}</TableCell>
            <TableCell>{t('list.columns.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((template) => (
            <TemplateRow key={template.id} template={template} />
          ))}
        </TableBody>
      </Table>
    );
  };

  return (
    <Dialog
      open={whatsapp !== undefined}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      aria-labelledby="templates-title"
    >
      <DialogTitle id="templates-title">{t('list.title', { name: whatsapp?.name })}</DialogTitle>
      <DialogContent dividers>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 2, mb: 1.5, flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {whatsapp?.templatesSyncedAt
              ? t('list.syncedAt', { at: formatShortDateTime(whatsapp.templatesSyncedAt) })
              : t('list.neverSynced')}
          </Typography>
          {maySync && (
            <Button
              variant="outlined"
              size="small"
              startIcon={syncing ? <CircularProgress size={16} /> : <SyncIcon />}
              disabled={syncing}
              onClick={() => void sync()}
            >
              {t('list.sync')}
            </Button>
          )}
        </Stack>
        {list()}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function TemplateRow({ template }: { template: WhatsappTemplate }) {
  const { t } = useTranslation('templates');
  return (
    <TableRow data-template={template.name}>
      <TableCell sx={{ maxWidth: 360 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-all' }}>
          {template.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" noWrap title={template.body}>
          {template.body}
        </Typography>
        {template.reason && (
          <Typography variant="caption" color="error" component="p">
            {t('list.reason', { reason: template.reason })}
          </Typography>
        )}
        {template.unsupported && (
          <Typography variant="caption" color="warning.main" component="p">
            {t('list.unsupported', { reason: t(`unsupported.${template.unsupported}`) })}
          </Typography>
        )}
      </TableCell>
      <TableCell>{template.language}</TableCell>
      <TableCell>{t(`category.${template.category}`, { defaultValue: template.category })}</TableCell>
      <TableCell>
        <Chip
          size="small"
          color={statusColor(template.status)}
          label={t(`status.${template.status}`, { defaultValue: template.status })}
        />
      </TableCell>
    </TableRow>
  );
}
