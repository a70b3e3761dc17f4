import { useEffect, useState } from 'react';
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { usePhone } from '../components/usePhone';
import { DEBOUNCE_MS } from '#shared/constants';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { asList } from '../realtime/cache';
import { useDebouncedValue } from '../lib/debounce';
import { ticketActions } from './api';
import type { Queue, Ticket } from './types';

interface UserOption {
  id: number;
  name: string;
  queues?: Queue[];
}

/** Transfer (2.8): a queue is required; a user is optional (search from 3 characters, 500 ms debounce). */
export function TransferModal({
  ticket,
  open,
  onClose,
  onDone,
}: {
  ticket: Ticket;
  open: boolean;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation(['tickets', 'common']);
  const phone = usePhone();
  const { data: queueData } = useApi<unknown>(open ? '/queue' : null);
  const queues = asList<Queue>(queueData, 'queues');
  const [queueId, setQueueId] = useState<number | ''>('');
  const [user, setUser] = useState<UserOption | null>(null);
  const [text, setText] = useState('');
  const [options, setOptions] = useState<UserOption[]>([]);
  const [error, setError] = useState(false);
  const [busy, setBusy] = useState(false);
  const search = useDebouncedValue(text, DEBOUNCE_MS);

  useEffect(() => {
    if (!open) {
      setQueueId('');
      setUser(null);
      setText('');
      setError(false);
    }
  }, [open]);

  useEffect(() => {
    if (search.trim().length < 3) return setOptions([]);
    let cancelled = false;
    api
      .get<unknown>('/users/list', { searchParam: search.trim() })
      .then(
        (d) =>
          !cancelled &&
          setOptions(
            asList<UserOption>(d, 'users').filter((u) => u.name.toLowerCase().includes(search.trim().toLowerCase())),
          ),
      )
      .catch(toastError);
    return () => {
      cancelled = true;
    };
  }, [search]);

  const submit = async () => {
    if (queueId === '') return setError(true);
    setBusy(true);
    try {
      await ticketActions.transfer(ticket, queueId, user?.id ?? null);
      onClose();
      onDone();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={phone} aria-labelledby="transfer-title">
      <DialogTitle id="transfer-title">{t('transfer.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Autocomplete
            options={options}
            value={user}
            onChange={(_, v) => setUser(v)}
            inputValue={text}
            onInputChange={(_, v) => setText(v)}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            filterOptions={(x) => x}
            noOptionsText={t('transfer.typeMore')}
            renderInput={(params) => <TextField {...params} label={t('transfer.user')} />}
          />
          <TextField
            select
            label={t('transfer.queue')}
            value={queueId}
            onChange={(e) => {
              setQueueId(Number(e.target.value));
              setError(false);
            }}
            error={error}
            helperText={error ? t('transfer.queueRequired') : undefined}
            required
          >
            {queues.map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {t('transfer.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
