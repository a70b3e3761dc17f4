import { useEffect, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { can } from '#shared/permissions';
import { TagBody, type Tag } from '#shared/schemas/tags';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { ColorPalette } from '../queues/ColorPalette';
import { QUEUE_PALETTE } from '../queues/palette';
import { RecordFields, useEditedRecord } from '../components/EditedRecord';

/** Add/edit a tag (management.md 5 and 6): name of at least 3; the kanban flag only for admin and supervisor. */
export function TagModal({
  open,
  tagId,
  onClose,
  onSaved,
}: {
  open: boolean;
  tagId?: number;
  onClose(): void;
  onSaved(tag: Tag): void;
}) {
  const { t } = useTranslation(['tags', 'common']);
  const { user } = useAuth();
  const mayKanban = can(user?.profile, 'tags:kanban');
  const [form, setForm] = useState({ name: '', color: QUEUE_PALETTE[22] as string, kanban: 0 as 0 | 1 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    if (!tagId) setForm({ name: '', color: QUEUE_PALETTE[22], kanban: 0 });
  }, [open, tagId]);
  const loading = useEditedRecord<Tag>(open, tagId ? `/tags/${tagId}` : null, (tag) =>
    setForm({ name: tag.name, color: tag.color, kanban: tag.kanban ? 1 : 0 }),
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = TagBody.safeParse({ ...form, userId: user?.id ?? null });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    const body = { ...parsed.data, ...(mayKanban ? {} : { kanban: undefined }) };
    setBusy(true);
    try {
      const saved = tagId ? await api.put<Tag>(`/tags/${tagId}`, body) : await api.post<Tag>('/tags', body);
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const nameError = fieldError('name');
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="tag-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="tag-modal-title">{tagId ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent>
          <RecordFields loading={loading}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <TextField
                label={t('modal.name')}
                value={form.name}
                onChange={(e) => {
                  setForm({ ...form, name: e.target.value });
                  setErrors(({ name: _, ...rest }) => rest);
                }}
                error={nameError.error}
                // Section 5 gives the tag's own words: 'Mensagem muito curta' (short) and 'Obrigatório' (required).
                helperText={errors.name === 'short' ? t('modal.tooShort') : nameError.helperText}
                required
                autoFocus
                fullWidth
              />
              <TextField
                label={t('modal.color')}
                value={form.color}
                onChange={(e) => setForm({ ...form, color: e.target.value })}
                {...fieldError('color')}
                fullWidth
                slotProps={{
                  input: {
                    startAdornment: (
                      <Box
                        sx={{ width: 18, height: 18, borderRadius: 0.5, bgcolor: form.color, mr: 1, flexShrink: 0 }}
                      />
                    ),
                  },
                }}
              />
              <ColorPalette value={form.color} onChange={(color) => setForm({ ...form, color })} />
              {mayKanban && (
                <FormControlLabel
                  control={
                    <Switch
                      checked={form.kanban === 1}
                      onChange={(e) => setForm({ ...form, kanban: e.target.checked ? 1 : 0 })}
                    />
                  }
                  label={t('modal.kanban')}
                />
              )}
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
