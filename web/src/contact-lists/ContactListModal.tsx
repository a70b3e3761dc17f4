import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ContactListBody, type ContactList } from '#shared/schemas/contact-lists';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';

/** Add/edit a contact list: name 2 to 50 characters (management.md 5). */
export function ContactListModal({
  open,
  list,
  onClose,
  onSaved,
}: {
  open: boolean;
  list: ContactList | null;
  onClose(): void;
  onSaved(l: ContactList): void;
}) {
  const { t } = useTranslation(['contactLists', 'common']);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setName(list?.name ?? '');
  }, [open, list]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ContactListBody.safeParse({ name });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const saved = list
        ? await api.put<ContactList>(`/contact-lists/${list.id}`, parsed.data)
        : await api.post<ContactList>('/contact-lists', parsed.data);
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
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="contact-list-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="contact-list-title">{list ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent>
          <TextField
            label={t('modal.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            {...fieldError('name')}
            required
            autoFocus
            fullWidth
            sx={{ mt: 1 }}
          />
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
