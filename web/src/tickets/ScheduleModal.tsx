import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { usePhone } from '../components/usePhone';
import { api } from '../api/client';
import { defaultSendAt, validateSchedule } from './schedule-rules';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import type { Ticket } from './types';

/** Schedule a message to the ticket's contact (2.8; schedule entity in management.md). */
export function ScheduleModal({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose(): void }) {
  const { t } = useTranslation(['tickets', 'common']);
  const phone = usePhone();
  const [body, setBody] = useState('');
  const [sendAt, setSendAt] = useState(defaultSendAt);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setBody('');
      setSendAt(defaultSendAt());
      setFile(null);
      setErrors({});
    }
  }, [open]);

  const submit = async () => {
    const { errors: errs, data } = validateSchedule(body, sendAt, ticket.contactId);
    if (!data) return setErrors(errs);
    setBusy(true);
    try {
      const saved = await api.post<{ id: number }>('/schedules', { ...data, ticketId: ticket.id });
      if (file && saved?.id) {
        const form = new FormData();
        form.append('file', file);
        await api.request('POST', `/schedules/${saved.id}/media-upload`, { body: form });
      }
      notify.success(t('schedule.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const helper = (key: string) =>
    errors[key]
      ? {
          error: true,
          helperText:
            errors[key] === 'short'
              ? t('schedule.tooShort')
              : t(`common:validation.${errors[key] === 'invalid' ? 'invalid' : 'required'}`),
        }
      : {};

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="schedule-title">
      <DialogTitle id="schedule-title">{t('schedule.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('schedule.body')}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            multiline
            minRows={3}
            required
            {...helper('body')}
          />
          <TextField
            label={t('schedule.sendAt')}
            type="datetime-local"
            value={sendAt}
            onChange={(e) => setSendAt(e.target.value)}
            required
            {...helper('sendAt')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button component="label" variant="outlined">
            {file ? file.name : t('schedule.media')}
            <input
              type="file"
              hidden
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {t('schedule.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
