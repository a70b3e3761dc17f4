import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ContactListItemBody, type ContactListItem } from '#shared/schemas/contact-lists';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';

/** Add/edit a list item (management.md 5): name 2-50, number 8-50, e-mail valid when given. */
export function ContactListItemModal({
  open,
  listId,
  item,
  onClose,
  onSaved,
}: {
  open: boolean;
  listId: number;
  item: ContactListItem | null;
  onClose(): void;
  onSaved(i: ContactListItem): void;
}) {
  const { t } = useTranslation(['contactLists', 'common']);
  const [form, setForm] = useState({ name: '', number: '', email: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setForm({ name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' });
  }, [open, item]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ContactListItemBody.safeParse({ ...form, contactListId: listId });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const { contactListId: _, ...changes } = parsed.data;
      const saved = item
        ? await api.put<ContactListItem>(`/contact-list-items/${item.id}`, changes)
        : await api.post<ContactListItem>('/contact-list-items', parsed.data);
      notify.success(t('items.saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: 'name' | 'number' | 'email', extra: object = {}) => (
    <TextField
      label={t(`items.modal.${name}`)}
      value={form[name]}
      onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      {...fieldError(name)}
      fullWidth
      {...extra}
    />
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="contact-list-item-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="contact-list-item-title">
          {item ? t('items.modal.titleEdit') : t('items.modal.titleAdd')}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {field('name', { required: true, autoFocus: true })}
            {field('number', { required: true, inputMode: 'tel' })}
            {field('email', { type: 'email' })}
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
