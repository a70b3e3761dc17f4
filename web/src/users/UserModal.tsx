import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  InputLabel,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can } from '#shared/permissions';
import { email, name2to50 } from '#shared/schemas/common';
import { password8to50 } from '#shared/schemas/accounts';
import { maxOpenTickets } from '#shared/schemas/users';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { asList } from '../realtime/cache';
import { useAuth } from '../auth/AuthProvider';
import type { Queue } from '../tickets/types';
import type { SessionUser } from '../auth/types';

/** 2.14 / section 5: name 2-50, valid e-mail, password 8-50 (optional when editing). */
export const UserForm = z.object({
  name: name2to50,
  email,
  password: z.union([z.literal(''), password8to50]).optional(),
  profile: z.enum(['admin', 'user', 'supervisor']),
  allTicket: z.enum(['enabled', 'desabled']),
  whatsappId: z.number().nullable(),
  queueIds: z.array(z.number()),
  /** digits, or empty for no limit (automatic assignment, issue 24) */
  maxOpenTickets,
});
export type UserFormValues = z.input<typeof UserForm>;

const EMPTY: UserFormValues = {
  name: '',
  email: '',
  password: '',
  profile: 'user',
  allTicket: 'desabled',
  whatsappId: null,
  queueIds: [],
  maxOpenTickets: '',
};

interface Props {
  open: boolean;
  /** absent = add a user */
  userId?: number;
  onClose(): void;
  onSaved?(user: SessionUser): void;
}

/**
 * The user modal (attendance.md 2.14). Only roles with user-modal:editProfile change profile,
 * connection and the view-all setting; user-modal:editQueues permits queue assignment.
 */
export function UserModal({ open, userId, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const [values, setValues] = useState<UserFormValues>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);
  const mayEditProfile = can(me?.profile, 'user-modal:editProfile');
  const mayEditQueues = can(me?.profile, 'user-modal:editQueues');
  const { data: queuesData } = useApi<unknown>(open ? '/queue' : null);
  const { data: whatsappData } = useApi<unknown>(open && mayEditProfile ? '/whatsapp' : null);
  const queues = asList<Queue>(queuesData, 'queues');
  const connections = asList<{ id: number; name: string }>(whatsappData, 'whatsapps');

  useEffect(() => {
    if (!open) return;
    setErrors({});
    if (!userId) return setValues(EMPTY);
    api
      .get<SessionUser>(`/users/${userId}`)
      .then((u) =>
        setValues({
          name: u.name,
          email: u.email,
          password: '',
          profile: u.profile,
          allTicket: u.allTicket ?? 'desabled',
          whatsappId: u.whatsappId ?? null,
          queueIds: u.queueIds ?? u.queues?.map((q) => q.id) ?? [],
          maxOpenTickets: u.maxOpenTickets == null ? '' : String(u.maxOpenTickets),
        }),
      )
      .catch(toastError);
  }, [open, userId]);

  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = UserForm.safeParse(values);
    const errs = parsed.success ? {} : fieldErrors(parsed.error);
    if (!userId && !values.password) errs.password = 'required';
    if (!parsed.success || Object.keys(errs).length) return setErrors(errs);
    const { password, ...rest } = parsed.data;
    const body = { ...rest, ...(password ? { password } : {}) };
    setBusy(true);
    try {
      const saved = userId
        ? await api.put<SessionUser>(`/users/${userId}`, body)
        : await api.post<SessionUser>('/users', body);
      notify.success(t('userModal.saved'));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="user-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="user-modal-title">{userId ? t('userModal.titleEdit') : t('userModal.titleAdd')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('userModal.name')}
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
                {...fieldError('name')}
                fullWidth
                required
                autoFocus
              />
              <TextField
                label={t('userModal.password')}
                type="password"
                value={values.password}
                onChange={(e) => set('password', e.target.value)}
                {...fieldError('password')}
                placeholder={userId ? t('userModal.passwordHint') : undefined}
                fullWidth
                autoComplete="new-password"
              />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('userModal.email')}
                type="email"
                value={values.email}
                onChange={(e) => set('email', e.target.value)}
                {...fieldError('email')}
                fullWidth
                required
              />
              <TextField
                select
                label={t('userModal.profile')}
                value={values.profile}
                onChange={(e) => set('profile', e.target.value as UserFormValues['profile'])}
                disabled={!mayEditProfile}
                fullWidth
              >
                {(['admin', 'user'] as const).map((p) => (
                  <MenuItem key={p} value={p}>
                    {t(`userModal.profiles.${p}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            {mayEditQueues && (
              <FormControl fullWidth>
                <InputLabel id="user-queues-label">{t('userModal.queues')}</InputLabel>
                <Select
                  labelId="user-queues-label"
                  label={t('userModal.queues')}
                  multiple
                  value={values.queueIds}
                  onChange={(e) => set('queueIds', (e.target.value as number[]).map(Number))}
                  renderValue={(ids) =>
                    queues
                      .filter((q) => ids.includes(q.id))
                      .map((q) => q.name)
                      .join(', ')
                  }
                >
                  {queues.map((q) => (
                    <MenuItem key={q.id} value={q.id}>
                      <Checkbox checked={values.queueIds.includes(q.id)} />
                      <ListItemText primary={q.name} />
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
            )}
            {mayEditProfile && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  select
                  label={t('userModal.whatsapp')}
                  value={values.whatsappId ?? ''}
                  onChange={(e) => set('whatsappId', e.target.value === '' ? null : Number(e.target.value))}
                  fullWidth
                >
                  <MenuItem value="">{t('userModal.none')}</MenuItem>
                  {connections.map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  label={t('userModal.allTicket')}
                  value={values.allTicket}
                  onChange={(e) => set('allTicket', e.target.value as UserFormValues['allTicket'])}
                  fullWidth
                >
                  {(['enabled', 'desabled'] as const).map((v) => (
                    <MenuItem key={v} value={v}>
                      {t(`userModal.allTicketOptions.${v}`)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
            )}
            {mayEditProfile && (
              <TextField
                label={t('userModal.maxOpenTickets')}
                value={values.maxOpenTickets ?? ''}
                onChange={(e) => set('maxOpenTickets', e.target.value.trim())}
                helperText={t('userModal.maxOpenTicketsHelp')}
                {...fieldError('maxOpenTickets')}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                sx={{ maxWidth: { sm: 260 } }}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('buttons.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
