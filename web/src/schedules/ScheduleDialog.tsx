import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CancelIcon from '@mui/icons-material/Cancel';
import { useTranslation } from 'react-i18next';
import { SCHEDULE_MEDIA_EXTENSIONS, type Schedule } from '#shared/schemas/schedules';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { formatDateTime } from '../lib/format';
import { defaultSendAt, validateSchedule } from '../tickets/schedule-rules';
import { VariableChips } from '../campaigns/VariableChips';
import { insertAt, variableToken } from '../campaigns/campaign-rules';
import { ContactPicker, type PickedContact } from './ContactPicker';
import { SCHEDULE_VARIABLES } from './schedule-view';
import { dialogTitleKey, isEditable, statusDetail, toLocalInput } from './schedule-view';

const isImage = (name: string) =>
  (SCHEDULE_MEDIA_EXTENSIONS as readonly string[]).includes(name.split('.').pop()?.toLowerCase() ?? '');

/**
 * Add, edit or look at one schedule (management.md "Schedule"): contact, message (5+ characters),
 * send time (default now + 1 hour) and an optional png/jpg/jpeg image. Read-only once sent; the
 * title says "send error" and the reason is shown when the status is ERRO (saving re-arms it).
 * "Cancel if the customer writes first": a canceled schedule shows why and when; saving re-arms it.
 */
export function ScheduleDialog({
  open,
  schedule,
  initialContactId,
  initialSendAt,
  onClose,
  onSaved,
  onDelete,
}: {
  open: boolean;
  schedule: Schedule | null;
  initialContactId?: number | null;
  initialSendAt?: Date | null;
  onClose(): void;
  onSaved(s: Schedule): void;
  onDelete(s: Schedule): void;
}) {
  const { t } = useTranslation(['schedules', 'common']);
  const [contact, setContact] = useState<PickedContact | null>(null);
  const [body, setBody] = useState('');
  const [sendAt, setSendAt] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const [cancelIfCustomerWrites, setCancelIfCustomerWrites] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const bodyInput = useRef<HTMLTextAreaElement>(null);
  const fieldError = useFieldError(errors);
  const editable = isEditable(schedule);
  const detail = schedule ? statusDetail(schedule) : undefined;

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setFile(null);
    setBody(schedule?.body ?? '');
    setMediaName(schedule?.mediaName ?? null);
    setCancelIfCustomerWrites(schedule?.cancelIfCustomerWrites ?? false);
    setSendAt(
      schedule
        ? toLocalInput(schedule.sendAt)
        : initialSendAt
          ? toLocalInput(initialSendAt.toISOString())
          : defaultSendAt(),
    );
    setContact(schedule?.contact ?? null);
    const wanted = schedule ? null : initialContactId;
    if (!wanted) return;
    let cancelled = false;
    api
      .get<PickedContact>(`/contacts/${wanted}`)
      .then((c) => !cancelled && setContact({ id: c.id, name: c.name, number: c.number }))
      .catch(toastError);
    return () => {
      cancelled = true;
    };
  }, [open, schedule, initialContactId, initialSendAt]);

  const insertVariable = (key: string) => {
    const el = bodyInput.current;
    const { text, caret } = insertAt(
      body,
      variableToken(key),
      el?.selectionStart ?? undefined,
      el?.selectionEnd ?? undefined,
    );
    setBody(text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  };

  const pickFile = (f: File | null) => {
    if (f && !isImage(f.name)) {
      notify.error(t('dialog.badMedia'));
      return;
    }
    setFile(f);
  };

  const removeMedia = async () => {
    if (file) return setFile(null);
    if (!schedule) return;
    try {
      const saved = await api.delete<Schedule>(`/schedules/${schedule.id}/media-upload`);
      setMediaName(null);
      if (saved) onSaved(saved);
      notify.success(t('dialog.mediaRemoved'));
    } catch (err) {
      toastError(err);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editable) return;
    const { errors: errs, data: fields } = validateSchedule(body, sendAt, contact?.id ?? 0);
    if (!fields) return setErrors(errs);
    const data = { ...fields, cancelIfCustomerWrites };
    setBusy(true);
    try {
      let saved = schedule
        ? await api.put<Schedule>(`/schedules/${schedule.id}`, data)
        : await api.post<Schedule>('/schedules', data);
      if (file) {
        const form = new FormData();
        form.append('file', file);
        saved = (await api.request<Schedule>('POST', `/schedules/${saved.id}/media-upload`, { body: form })) ?? saved;
      }
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const bodyError = errors.body === 'short' ? { error: true, helperText: t('dialog.tooShort') } : fieldError('body');
  const shownMedia = file ? file.name : mediaName;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="schedule-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="schedule-dialog-title" color={schedule?.status === 'ERRO' ? 'error' : undefined}>
          {t(dialogTitleKey(schedule))}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {schedule?.status === 'ERRO' && detail && (
              <Alert severity="error" role="alert">
                {t(detail.key, detail.values)}
                <Typography variant="body2">{t('dialog.retryHint')}</Typography>
              </Alert>
            )}
            {schedule?.status === 'CANCELADA' && detail && (
              <Alert severity="warning" role="status">
                {t(detail.key, detail.values)}
                <Typography variant="body2">{t('dialog.rearmHint')}</Typography>
              </Alert>
            )}
            {!editable && schedule && (
              <Alert severity="info">
                {t('dialog.readOnly')}
                {schedule.sentAt && (
                  <Typography variant="body2">
                    {t('dialog.sentAt', { date: formatDateTime(schedule.sentAt) })}
                  </Typography>
                )}
              </Alert>
            )}
            <ContactPicker
              value={contact}
              onChange={setContact}
              label={t('dialog.contact')}
              placeholder={t('dialog.contactSearch')}
              noOptionsText={t('dialog.noContacts')}
              disabled={!editable}
              {...fieldError('contactId')}
            />
            <TextField
              inputRef={bodyInput}
              label={t('dialog.body')}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              multiline
              minRows={4}
              required
              disabled={!editable}
              {...bodyError}
            />
            {editable && <VariableChips keys={SCHEDULE_VARIABLES} onInsert={insertVariable} />}
            <TextField
              label={t('dialog.sendAt')}
              type="datetime-local"
              value={sendAt}
              onChange={(e) => setSendAt(e.target.value)}
              required
              disabled={!editable}
              {...fieldError('sendAt')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <input
                ref={fileInput}
                type="file"
                hidden
                aria-label={t('dialog.attach')}
                accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                onChange={(e) => pickFile(e.target.files?.[0] ?? null)}
              />
              {editable && (
                <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
                  {t('dialog.attach')}
                </Button>
              )}
              {shownMedia ? (
                <Chip
                  label={shownMedia}
                  onDelete={editable ? () => void removeMedia() : undefined}
                  deleteIcon={<CancelIcon titleAccess={t('dialog.removeMedia', { name: shownMedia })} />}
                />
              ) : (
                editable && (
                  <Typography variant="caption" color="text.secondary">
                    {t('dialog.mediaTypes')}
                  </Typography>
                )
              )}
            </Stack>
            <div>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={cancelIfCustomerWrites}
                    onChange={(e) => setCancelIfCustomerWrites(e.target.checked)}
                    disabled={!editable}
                    slotProps={{ input: { 'aria-describedby': 'schedule-cancel-hint' } }}
                  />
                }
                label={t('dialog.cancelIfCustomerWrites')}
              />
              <FormHelperText id="schedule-cancel-hint" sx={{ mt: 0 }}>
                {t('dialog.cancelIfCustomerWritesHint')}
              </FormHelperText>
            </div>
          </Stack>
        </DialogContent>
        <DialogActions>
          {schedule && editable && (
            <Button color="error" onClick={() => onDelete(schedule)} sx={{ mr: 'auto' }}>
              {t('common:buttons.delete')}
            </Button>
          )}
          <Button onClick={onClose}>{editable ? t('common:buttons.cancel') : t('common:buttons.close')}</Button>
          {editable && (
            <Button type="submit" variant="contained" disabled={busy}>
              {t('common:buttons.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
