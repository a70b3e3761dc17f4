import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { useTranslation } from 'react-i18next';
import {
  ANNOUNCEMENT_DEFAULT_PRIORITY,
  ANNOUNCEMENT_PRIORITIES,
  AnnouncementBody,
  type Announcement,
} from '#shared/schemas/announcements';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';

const ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
/** The image types an announcement takes (management.md 5). */
export const isAnnouncementImage = (name: string) => /\.(png|jpe?g)$/i.test(name);

/** Add/edit an announcement (super users): title, text, priority, status and an image. */
export function AnnouncementModal({
  open,
  announcement,
  onClose,
  onSaved,
}: {
  open: boolean;
  announcement?: Announcement;
  onClose(): void;
  onSaved(a: Announcement): void;
}) {
  const { t } = useTranslation('announcements');
  const [form, setForm] = useState({ title: '', text: '', priority: ANNOUNCEMENT_DEFAULT_PRIORITY, status: true });
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setFile(null);
    setRemoveMedia(false);
    setForm(
      announcement
        ? {
            title: announcement.title,
            text: announcement.text,
            priority: announcement.priority,
            status: announcement.status,
          }
        : { title: '', text: '', priority: ANNOUNCEMENT_DEFAULT_PRIORITY, status: true },
    );
  }, [open, announcement]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = AnnouncementBody.safeParse(form);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      let saved = announcement
        ? await api.put<Announcement>(`/announcements/${announcement.id}`, parsed.data)
        : await api.post<Announcement>('/announcements', parsed.data);
      if (removeMedia && saved.mediaPath && !file)
        saved = await api.delete<Announcement>(`/announcements/${saved.id}/media-upload`);
      if (file) {
        const body = new FormData();
        body.append('file', file);
        saved = await api.post<Announcement>(`/announcements/${saved.id}/media-upload`, body);
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

  const shownMedia = file?.name ?? (removeMedia ? null : announcement?.mediaName);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="announcement-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="announcement-modal-title">
          {announcement ? t('modal.titleEdit') : t('modal.titleAdd')}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('modal.title')}
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
              {...fieldError('title')}
              autoFocus
            />
            <TextField
              label={t('modal.text')}
              value={form.text}
              onChange={(e) => setForm({ ...form, text: e.target.value })}
              {...fieldError('text')}
              multiline
              minRows={4}
            />
            <Stack direction="row" spacing={2}>
              <TextField
                select
                fullWidth
                label={t('modal.priority')}
                value={form.priority}
                onChange={(e) => setForm({ ...form, priority: Number(e.target.value) })}
              >
                {ANNOUNCEMENT_PRIORITIES.map((p) => (
                  <MenuItem key={p} value={p}>
                    {t(`priority.${p}`)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                fullWidth
                label={t('modal.status')}
                value={form.status ? 'active' : 'inactive'}
                onChange={(e) => setForm({ ...form, status: e.target.value === 'active' })}
              >
                <MenuItem value="active">{t('status.active')}</MenuItem>
                <MenuItem value="inactive">{t('status.inactive')}</MenuItem>
              </TextField>
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Button component="label" startIcon={<AttachFileIcon />}>
                {t('modal.attach')}
                <input
                  hidden
                  type="file"
                  accept={ACCEPT}
                  aria-label={t('modal.media')}
                  onChange={(e) => {
                    const chosen = e.target.files?.[0] ?? null;
                    e.target.value = '';
                    if (chosen && !isAnnouncementImage(chosen.name)) return notify.error(t('modal.media'));
                    setFile(chosen);
                  }}
                />
              </Button>
              {shownMedia && (
                <>
                  <Typography variant="body2" noWrap sx={{ flex: 1 }}>
                    {shownMedia}
                  </Typography>
                  <Button
                    color="error"
                    onClick={() => {
                      setFile(null);
                      setRemoveMedia(true);
                    }}
                  >
                    {t('modal.removeMedia')}
                  </Button>
                </>
              )}
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('modal.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('modal.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
