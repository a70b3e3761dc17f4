import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { addHours, format } from 'date-fns';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import type { Ticket } from './types';

/** Section 5: body required, at least 5 characters; sendAt defaults to now + 1 hour. */
export function validateSchedule(body: string, sendAt: string) {
  const errors: Record<string, string> = {};
  if (!body.trim()) errors.body = 'required';
  else if (body.trim().length < 5) errors.body = 'short';
  if (!sendAt) errors.sendAt = 'required';
  return errors;
}

const defaultSendAt = () => format(addHours(new Date(), 1), "yyyy-MM-dd'T'HH:mm");

/** Schedule a message to the ticket's contact (2.8; schedule entity in management.md). */
export function ScheduleModal({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose(): void }) {
  const { t } = useTranslation(['tickets', 'common']);
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
    const errs = validateSchedule(body, sendAt);
    if (Object.keys(errs).length) return setErrors(errs);
    setBusy(true);
    try {
      const saved = await api.post<{ id: number }>('/schedules', { body: body.trim(), contactId: ticket.contactId, ticketId: ticket.id, sendAt: new Date(sendAt).toISOString() });
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

  const helper = (key: string) => (errors[key] ? { error: true, helperText: errors[key] === 'short' ? t('schedule.tooShort') : t('common:validation.required') } : {});

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="schedule-title">
      <DialogTitle id="schedule-title">{t('schedule.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t('schedule.body')} value={body} onChange={(e) => setBody(e.target.value)} multiline minRows={3} required {...helper('body')} />
          <TextField label={t('schedule.sendAt')} type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} required {...helper('sendAt')} slotProps={{ inputLabel: { shrink: true } }} />
          <Button component="label" variant="outlined">
            {file ? file.name : t('schedule.media')}
            <input type="file" hidden accept=".png,.jpg,.jpeg,image/png,image/jpeg" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
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
