import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ChatBody, type Chat } from '#shared/schemas/chats';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';

interface UserOption {
  id: number;
  name: string;
}

/** Create or edit a chat (management.md "Internal chat", 5): a title and at least one member. */
export function ChatModal({
  open,
  chat,
  onClose,
  onSaved,
}: {
  open: boolean;
  chat?: Chat;
  onClose(): void;
  onSaved(chat: Chat): void;
}) {
  const { t } = useTranslation('chats');
  const { user } = useAuth();
  const { data: users } = useApi<UserOption[]>(open ? '/users/list' : null);
  const [title, setTitle] = useState('');
  const [members, setMembers] = useState<UserOption[]>([]);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const options = (users ?? []).filter((u) => u.id !== user?.id);

  useEffect(() => {
    if (!open) return;
    setAlert(null);
    setTitle(chat?.title ?? '');
    setMembers(
      (chat?.users ?? []).filter((u) => u.userId !== user?.id).map((u) => ({ id: u.userId, name: u.user.name })),
    );
  }, [open, chat, user?.id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ChatBody.safeParse({ title, users: members.map((m) => m.id) });
    if (!parsed.success) {
      const path = parsed.error.issues[0]?.path[0];
      return setAlert(path === 'users' ? t('modal.usersRequired') : t('modal.titleRequired'));
    }
    setBusy(true);
    try {
      const saved = chat
        ? await api.put<Chat>(`/chats/${chat.id}`, parsed.data)
        : await api.post<Chat>('/chats', parsed.data);
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="chat-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="chat-modal-title">{chat ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {alert && (
              <Alert severity="warning" role="alert">
                {alert}
              </Alert>
            )}
            <TextField label={t('modal.title')} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
            <Autocomplete
              multiple
              options={options}
              value={members}
              onChange={(_, v) => setMembers(v)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => <TextField {...params} label={t('modal.users')} />}
            />
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
