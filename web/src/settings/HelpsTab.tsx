import { useEffect, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { HelpBody, type Help } from '#shared/schemas/billing';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { asList, removeById, upsertById } from '../realtime/cache';
import { platformError } from './platform-errors';

/** The super user's helps (management.md "Settings page", 3 "Help"): title, description and video code. */
export function HelpsTab() {
  const { t } = useTranslation(['settings', 'common']);
  const { data, mutate } = useApi<unknown>('/helps');
  const helps = asList<Help>(data, 'helps');
  const confirmedDelete = useConfirmedDelete();
  const [editing, setEditing] = useState<{ help?: Help } | null>(null);

  const remove = (h: Help) =>
    confirmedDelete({
      message: t('helps.confirmDelete', { title: h.title }),
      path: `/helps/${h.id}`,
      onDeleted: () => void mutate((d: unknown) => removeById(asList<Help>(d, 'helps'), h.id), { revalidate: false }),
      deleted: t('helps.deleted'),
    });

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 2 }}>
        <Button variant="contained" onClick={() => setEditing({})}>
          {t('helps.add')}
        </Button>
      </Box>
      <Table size="small" aria-label={t('tabs.helps')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('helps.fields.title')}</TableCell>
            <TableCell>{t('helps.fields.description')}</TableCell>
            <TableCell>{t('helps.fields.video')}</TableCell>
            <TableCell align="center">{t('companies.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {helps.map((h) => (
            <TableRow key={h.id} hover>
              <TableCell>{h.title}</TableCell>
              <TableCell sx={{ maxWidth: 420, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {h.description}
              </TableCell>
              <TableCell>{h.video}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('helps.edit', { title: h.title })}
                  onClick={() => setEditing({ help: h })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('helps.delete', { title: h.title })}
                  onClick={() => void remove(h)}
                >
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {helps.length === 0 && data !== undefined && (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('helps.empty')}
        </Typography>
      )}
      <HelpModal
        open={editing !== null}
        help={editing?.help}
        onClose={() => setEditing(null)}
        onSaved={(saved) =>
          void mutate((d: unknown) => upsertById(asList<Help>(d, 'helps'), saved), { revalidate: false })
        }
      />
    </Box>
  );
}

function HelpModal({
  open,
  help,
  onClose,
  onSaved,
}: {
  open: boolean;
  help?: Help;
  onClose(): void;
  onSaved(help: Help): void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const [form, setForm] = useState({ title: '', description: '', video: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setForm(
      help
        ? { title: help.title, description: help.description, video: help.video }
        : { title: '', description: '', video: '' },
    );
    setErrors({});
  }, [open, help]);

  const set = (key: keyof typeof form, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = HelpBody.safeParse(form);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const saved = help
        ? await api.put<Help>(`/helps/${help.id}`, parsed.data)
        : await api.post<Help>('/helps', parsed.data);
      notify.success(t('helps.saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      platformError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="help-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="help-modal-title">{help ? t('helps.titleEdit') : t('helps.titleAdd')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('helps.fields.title')}
              required
              autoFocus
              fullWidth
              value={form.title}
              onChange={(e) => set('title', e.target.value)}
              {...fieldError('title')}
            />
            <TextField
              label={t('helps.fields.video')}
              helperText={errors.video ? fieldError('video').helperText : t('helps.videoHint')}
              error={Boolean(errors.video)}
              fullWidth
              value={form.video}
              onChange={(e) => set('video', e.target.value)}
            />
            <TextField
              label={t('helps.fields.description')}
              fullWidth
              multiline
              minRows={3}
              value={form.description}
              onChange={(e) => set('description', e.target.value)}
              {...fieldError('description')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
