import { useEffect, useState } from 'react';
import {
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
import { usePhone } from '../components/usePhone';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { formatDateTime } from '../lib/format';
import { ticketActions } from './api';
import { presetUntil, SNOOZE_PRESETS, snoozeBody, toLocalInput, type SnoozePreset } from './snooze-presets';
import type { Ticket } from './types';

/** Snooze (issue 40): the ticket leaves the open list until a time, or until the customer writes. */
export function SnoozeModal({
  ticket,
  open,
  onClose,
  onDone,
}: {
  ticket: Ticket;
  open: boolean;
  onClose(): void;
  onDone(saved: Ticket | undefined): void;
}) {
  const { t } = useTranslation('snooze');
  const phone = usePhone();
  const [preset, setPreset] = useState<SnoozePreset>('oneHour');
  const [custom, setCustom] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  // the presets' times as shown, from when the dialog opened
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    if (!open) return;
    const opened = new Date();
    setNow(opened);
    setPreset('oneHour');
    setCustom(toLocalInput(presetUntil('tomorrow', opened)!));
    setInvalid(false);
  }, [open]);

  const submit = async () => {
    const body = snoozeBody(preset, new Date(), custom);
    if (!body) return setInvalid(true);
    setBusy(true);
    try {
      const saved = await ticketActions.snooze(ticket, body);
      notify.success(t('done'));
      onDone(saved);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const label = (p: SnoozePreset) => {
    const until = presetUntil(p, now);
    return until ? `${t(`presets.${p}`)} (${formatDateTime(until)})` : t(`presets.${p}`);
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={phone} aria-labelledby="snooze-title">
      <DialogTitle id="snooze-title">{t('title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('hint')}
          </Typography>
          <RadioGroup
            aria-label={t('choice')}
            value={preset}
            onChange={(e) => {
              setPreset(e.target.value as SnoozePreset);
              setInvalid(false);
            }}
          >
            {SNOOZE_PRESETS.map((p) => (
              <FormControlLabel key={p} value={p} control={<Radio />} label={label(p)} />
            ))}
          </RadioGroup>
          {preset === 'custom' && (
            <TextField
              label={t('when')}
              type="datetime-local"
              value={custom}
              onChange={(e) => {
                setCustom(e.target.value);
                setInvalid(false);
              }}
              required
              error={invalid}
              helperText={invalid ? t('invalid') : undefined}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
          {invalid && preset !== 'custom' && (
            <Typography role="alert" color="error" variant="body2">
              {t('invalid')}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {t('confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
