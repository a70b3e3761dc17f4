import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import type { Transport } from '#shared/transports';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';

type Connection = Pick<Whatsapp, 'id' | 'name' | 'number' | 'cloudTransport' | 'preferredTransport' | 'phoneNumberId'>;

interface Props {
  /** the WhatsApp Web connection; undefined: closed */
  whatsapp: Connection | undefined;
  onClose(): void;
  onChanged(): void;
}

const EMPTY = { phoneNumberId: '', wabaId: '', accessToken: '', appSecret: '' };

/**
 * One number, two transports: the Cloud API credentials of a WhatsApp Web connection's own number
 * (attached only when Meta confirms the same number), which transport in-window replies prefer, and
 * removing it. Templates, costs and quality then show as on a Cloud API connection.
 */
export default function CloudTransportDialog({ whatsapp, onClose, onChanged }: Props) {
  const { t } = useTranslation(['connections', 'common']);
  const confirm = useConfirm();
  const [fields, setFields] = useState(EMPTY);
  const [preferred, setPreferred] = useState<Transport>(whatsapp?.preferredTransport ?? 'web');
  const [busy, setBusy] = useState(false);
  const attached = whatsapp?.cloudTransport;

  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await call();
      onChanged();
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const attach = () =>
    run(() => api.post(`/whatsapp/${whatsapp!.id}/cloud-transport`, { ...fields, preferredTransport: preferred }));
  const save = () => run(() => api.put(`/whatsapp/${whatsapp!.id}/cloud-transport`, { preferredTransport: preferred }));
  const detach = async () => {
    if (!(await confirm({ message: t('transport.confirmDetach', { name: whatsapp!.name }) }))) return;
    await run(() => api.delete(`/whatsapp/${whatsapp!.id}/cloud-transport`));
  };
  const field = (name: keyof typeof EMPTY, secret = false) => (
    <TextField
      key={name}
      label={t(`transport.fields.${name}`)}
      value={fields[name]}
      type={secret ? 'password' : 'text'}
      autoComplete="off"
      required
      size="small"
      onChange={(e) => setFields((f) => ({ ...f, [name]: e.target.value }))}
    />
  );
  const complete = Object.values(fields).every((v) => v.trim());

  return (
    <Dialog open={Boolean(whatsapp)} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="transport-title">
      <DialogTitle id="transport-title">{t('transport.title', { name: whatsapp?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('transport.intro', { number: whatsapp?.number ?? '—' })}
          </Typography>
          {attached ? (
            <Alert severity={attached.status === 'CONNECTED' ? 'success' : 'warning'}>
              {attached.status === 'CONNECTED'
                ? t('transport.connected', { id: whatsapp?.phoneNumberId ?? '' })
                : t(`cloudReason.${attached.statusReason ?? 'graphUnavailable'}`)}
            </Alert>
          ) : (
            <>
              {field('phoneNumberId')}
              {field('wabaId')}
              {field('accessToken', true)}
              {field('appSecret', true)}
            </>
          )}
          <div>
            <Typography id="transport-preferred" variant="subtitle2">
              {t('transport.preferred')}
            </Typography>
            <RadioGroup
              aria-labelledby="transport-preferred"
              value={preferred}
              onChange={(e) => setPreferred(e.target.value as Transport)}
            >
              <FormControlLabel value="web" control={<Radio />} label={t('transport.web')} />
              <FormControlLabel value="cloud" control={<Radio />} label={t('transport.cloud')} />
            </RadioGroup>
            <Typography variant="caption" color="text.secondary">
              {t('transport.rules')}
            </Typography>
          </div>
        </Stack>
      </DialogContent>
      <DialogActions>
        {attached && (
          <Button color="error" disabled={busy} onClick={() => void detach()} sx={{ mr: 'auto' }}>
            {t('transport.detach')}
          </Button>
        )}
        <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
        {attached ? (
          <Button variant="contained" disabled={busy} onClick={() => void save()}>
            {t('common:buttons.save')}
          </Button>
        ) : (
          <Button variant="contained" disabled={busy || !complete} onClick={() => void attach()}>
            {t('transport.attach')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
