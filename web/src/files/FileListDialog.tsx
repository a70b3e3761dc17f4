import { useEffect, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Link,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { FileListBody, type FileList } from '#shared/schemas/files';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { newOptionRow, optionsBody, rowsFromOptions, shownFileName, type OptionRow } from './file-options';
import { uploadToStorage } from './storage-upload';

/**
 * Add/edit a file list (management.md "Files"): name, message (5 rows), a repeatable list of options
 * each with a description, a file picker and a remove button; cancel and OK with a spinner while
 * saving. New files go straight to storage first; the list is then saved with their keys.
 */
export function FileListDialog({
  open,
  id,
  onClose,
  onSaved,
}: {
  open: boolean;
  id?: number;
  onClose(): void;
  onSaved(f: FileList): void;
}) {
  const { t } = useTranslation(['files', 'common']);
  const { user } = useAuth();
  const [form, setForm] = useState({ name: '', message: '' });
  const [rows, setRows] = useState<OptionRow[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    if (!id) {
      setForm({ name: '', message: '' });
      return setRows([]);
    }
    api
      .get<FileList>(`/files/${id}`)
      .then((f) => {
        setForm({ name: f.name, message: f.message ?? '' });
        setRows(rowsFromOptions(f.options ?? []));
      })
      .catch(toastError);
  }, [open, id]);

  const patchRow = (key: string, patch: Partial<OptionRow>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = FileListBody.safeParse({ ...form, options: optionsBody(rows, new Map()) });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      const uploaded = new Map<string, { key: string; mimetype: string }>();
      for (const r of rows) if (r.file) uploaded.set(r.key, await uploadToStorage(r.file));
      const body = { ...parsed.data, options: optionsBody(rows, uploaded), userId: user?.id };
      const saved = id ? await api.put<FileList>(`/files/${id}`, body) : await api.post<FileList>('/files', body);
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="file-list-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="file-list-title">{id ? t('dialog.titleEdit') : t('dialog.titleAdd')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('dialog.name')}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              {...fieldError('name')}
              required
              autoFocus
              fullWidth
            />
            <TextField
              label={t('dialog.message')}
              value={form.message}
              onChange={(e) => setForm({ ...form, message: e.target.value })}
              {...fieldError('message')}
              required
              multiline
              rows={5}
              fullWidth
            />
            <Typography variant="subtitle2">{t('dialog.options')}</Typography>
            {rows.map((r, i) => (
              <Stack
                key={r.key}
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                sx={{ alignItems: { sm: 'center' } }}
              >
                <TextField
                  label={t('dialog.optionName', { n: i + 1 })}
                  value={r.name}
                  onChange={(e) => patchRow(r.key, { name: e.target.value })}
                  multiline
                  size="small"
                  sx={{ flex: 1 }}
                />
                <Button component="label" startIcon={<AttachFileIcon />} size="small">
                  {t('dialog.pickFile', { n: i + 1 })}
                  <input
                    type="file"
                    hidden
                    aria-label={t('dialog.pickFile', { n: i + 1 })}
                    onChange={(e) => patchRow(r.key, { file: e.target.files?.[0] ?? null })}
                  />
                </Button>
                <Typography
                  variant="body2"
                  color={shownFileName(r) ? 'text.primary' : 'text.secondary'}
                  noWrap
                  sx={{ width: { sm: 200 } }}
                  title={shownFileName(r)}
                >
                  {!r.file && r.url ? (
                    <Link href={r.url} target="_blank" rel="noopener noreferrer">
                      {shownFileName(r)}
                    </Link>
                  ) : (
                    shownFileName(r) || t('dialog.noFile')
                  )}
                </Typography>
                <IconButton
                  aria-label={t('dialog.removeOption', { n: i + 1 })}
                  onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <Box>
              <Button startIcon={<AddIcon />} onClick={() => setRows((rs) => [...rs, newOptionRow()])}>
                {t('dialog.addOption')}
              </Button>
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('common:buttons.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} aria-label={t('dialog.saving')} /> : undefined}
          >
            {t('dialog.ok')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
