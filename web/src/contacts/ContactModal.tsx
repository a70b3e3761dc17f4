import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { usePhone } from '../components/usePhone';
import { ContactBody, ContactUpdateBody } from '#shared/schemas/contacts';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import type { Contact } from '../tickets/types';

/** Section 5 (the shared schema): name 2-50; number 8-50 digits; e-mail valid when given; extra info pairs. */
export const ContactForm = ContactBody;
/**
 * Editing a contact WhatsApp knows only by its `@lid` id: the number may stay empty (the contact stays
 * number-less) until somebody types it.
 */
export const NumberlessContactForm = ContactBody.extend({ number: ContactUpdateBody.shape.number });
export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  /** `key` is a client-side row id for React (rows can be removed); it is not sent. */
  extraInfo: { key: number; name: string; value: string }[];
}

let lastRowKey = 0;
const newRow = (name = '', value = '') => ({ key: ++lastRowKey, name, value });

interface Props {
  open: boolean;
  contactId?: number;
  initialName?: string;
  onClose(): void;
  onSaved?(contact: Contact): void;
}

export function ContactModal({ open, contactId, initialName, onClose, onSaved }: Props) {
  const { t } = useTranslation(['contacts', 'common']);
  const phone = usePhone();
  const [values, setValues] = useState<ContactFormValues>({ name: '', number: '', email: '', extraInfo: [] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  /** the contact being edited has no number (known only by its @lid id) */
  const [numberless, setNumberless] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setNumberless(false);
    if (!contactId) return setValues({ name: initialName ?? '', number: '', email: '', extraInfo: [] });
    api
      .get<Contact>(`/contacts/${contactId}`)
      .then((c) => {
        setNumberless(!c.number && !c.isGroup);
        setValues({
          name: c.name,
          number: c.number,
          email: c.email ?? '',
          extraInfo: (c.extraInfo ?? []).map(({ name, value }) => newRow(name, value)),
        });
      })
      .catch(toastError);
  }, [open, contactId, initialName]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = (numberless ? NumberlessContactForm : ContactForm).safeParse({
      ...values,
      extraInfo: values.extraInfo.map(({ name, value }) => ({ name, value })),
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const body = parsed.data;
      const saved = contactId
        ? await api.put<Contact>(`/contacts/${contactId}`, body)
        : await api.post<Contact>('/contacts', body);
      notify.success(t('modal.saved'));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const setExtra = (i: number, key: 'name' | 'value', v: string) =>
    setValues((s) => ({ ...s, extraInfo: s.extraInfo.map((x, j) => (j === i ? { ...x, [key]: v } : x)) }));

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="contact-modal-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="contact-modal-title">{contactId ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('modal.name')}
                value={values.name}
                onChange={(e) => {
                  setValues({ ...values, name: e.target.value });
                  setErrors(({ name: _gone, ...rest }) => rest);
                }}
                {...fieldError('name')}
                required
                fullWidth
                autoFocus
              />
              <TextField
                label={t('modal.number')}
                value={values.number}
                onChange={(e) => {
                  setValues({ ...values, number: e.target.value });
                  setErrors(({ number: _gone, ...rest }) => rest);
                }}
                {...(numberless && !errors.number ? { helperText: t('common:noNumber') } : fieldError('number'))}
                required={!numberless}
                fullWidth
                placeholder="5511999998888"
              />
            </Stack>
            <TextField
              label={t('modal.email')}
              type="email"
              value={values.email}
              onChange={(e) => {
                setValues({ ...values, email: e.target.value });
                setErrors(({ email: _gone, ...rest }) => rest);
              }}
              {...fieldError('email')}
              fullWidth
            />
            <Typography variant="subtitle2">{t('modal.extraInfo')}</Typography>
            {values.extraInfo.map((info, i) => (
              <Stack key={info.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField
                  size="small"
                  label={t('modal.extraName')}
                  value={info.name}
                  onChange={(e) => setExtra(i, 'name', e.target.value)}
                  fullWidth
                />
                <TextField
                  size="small"
                  label={t('modal.extraValue')}
                  value={info.value}
                  onChange={(e) => setExtra(i, 'value', e.target.value)}
                  fullWidth
                />
                <IconButton
                  aria-label={t('modal.removeExtra')}
                  onClick={() => setValues((s) => ({ ...s, extraInfo: s.extraInfo.filter((_, j) => j !== i) }))}
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <Button
              startIcon={<AddIcon />}
              onClick={() => setValues((s) => ({ ...s, extraInfo: [...s.extraInfo, newRow()] }))}
              sx={{ alignSelf: 'flex-start' }}
            >
              {t('modal.addExtra')}
            </Button>
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
