import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CancelIcon from '@mui/icons-material/Cancel';
import { useTranslation } from 'react-i18next';
import { QuickMessageBody, type QuickMessage } from '#shared/schemas/quick-messages';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { mediaFileName, mediaUploadBody } from './media';
import { RecordFields, useEditedRecord } from '../components/EditedRecord';

/** Add/edit a quick message (management.md "Quick messages", 5, 7, 9): shortcode required; optional media. */
export function QuickMessageModal({
  open,
  id,
  onClose,
  onSaved,
}: {
  open: boolean;
  id?: number;
  onClose(): void;
  onSaved(q: QuickMessage): void;
}) {
  const { t } = useTranslation(['quickMessages', 'common']);
  const [form, setForm] = useState({ shortcode: '', message: '', geral: true });
  const [mediaName, setMediaName] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setFile(null);
    if (!id) {
      setForm({ shortcode: '', message: '', geral: true });
      setMediaName(null);
    }
  }, [open, id]);
  const loading = useEditedRecord<QuickMessage>(open, id ? `/quick-messages/${id}` : null, (q) => {
    setForm({ shortcode: q.shortcode, message: q.message ?? '', geral: Boolean(q.geral) });
    setMediaName(q.mediaName ?? null);
  });

  const removeMedia = async () => {
    if (file) return setFile(null);
    if (!id) return;
    try {
      await api.delete(`/quick-messages/${id}/media-upload`);
      setMediaName(null);
      notify.success(t('modal.mediaRemoved'));
    } catch (err) {
      toastError(err);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = QuickMessageBody.safeParse(form);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      let saved = id
        ? await api.put<QuickMessage>(`/quick-messages/${id}`, parsed.data)
        : await api.post<QuickMessage>('/quick-messages', parsed.data);
      if (file)
        saved =
          (await api.post<QuickMessage>(`/quick-messages/${saved.id}/media-upload`, mediaUploadBody(file))) ?? saved;
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const shownMedia = file ? mediaFileName(file.name) : mediaName;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="qm-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="qm-modal-title">{id ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent>
          <RecordFields loading={loading}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <TextField
                label={t('modal.shortcode')}
                value={form.shortcode}
                onChange={(e) => setForm({ ...form, shortcode: e.target.value })}
                {...fieldError('shortcode')}
                required
                autoFocus
                fullWidth
              />
              <TextField
                label={t('modal.message')}
                value={form.message}
                onChange={(e) => setForm({ ...form, message: e.target.value })}
                {...fieldError('message')}
                multiline
                minRows={4}
                fullWidth
              />
              <FormControlLabel
                control={
                  <Switch checked={form.geral} onChange={(e) => setForm({ ...form, geral: e.target.checked })} />
                }
                label={t('modal.geral')}
              />
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <input
                  ref={fileInput}
                  type="file"
                  hidden
                  aria-label={t('modal.attach')}
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                />
                <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
                  {t('modal.attach')}
                </Button>
                {shownMedia && (
                  <Chip
                    label={shownMedia}
                    onDelete={() => void removeMedia()}
                    deleteIcon={<CancelIcon titleAccess={t('modal.removeMedia', { name: shownMedia })} />}
                  />
                )}
              </Stack>
            </Stack>
          </RecordFields>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || loading}>
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
