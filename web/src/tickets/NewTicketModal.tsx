import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
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
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useAuth } from '../auth/AuthProvider';
import { useDebouncedValue } from '../lib/debounce';
import { asList } from '../realtime/cache';
import { ContactModal } from '../contacts/ContactModal';
import { needsQueue, otherTicketOutcome, searchStarts } from './new-ticket-rules';
import type { Contact, Queue, Ticket } from './types';
import { shownNumber } from '../contacts/contact-number';

type Option = Contact | { id: 'new'; name: string };

/**
 * New ticket (2.7): contact search from 3 characters or add one, a queue (required unless admin).
 * `initialContact` opens it with that contact chosen (the contacts page's "start a ticket").
 */
export function NewTicketModal({
  open,
  onClose,
  onCreated,
  initialContact,
}: {
  open: boolean;
  onClose(): void;
  onCreated(t: Ticket): void;
  initialContact?: Contact | null;
}) {
  const { t } = useTranslation(['tickets', 'common']);
  const phone = usePhone();
  const { user } = useAuth();
  const [text, setText] = useState('');
  const [contact, setContact] = useState<Contact | null>(null);
  const [options, setOptions] = useState<Contact[]>([]);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [queueError, setQueueError] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const search = useDebouncedValue(text, DEBOUNCE_MS);
  const { data: queueData, error: queueLoadError } = useApi<unknown>(open ? '/queue' : null);
  const queues = useMemo(() => {
    const all = asList<Queue>(queueData, 'queues');
    return user?.profile === 'admin' ? all : all.filter((q) => user?.queueIds?.includes(q.id));
  }, [queueData, user]);

  useEffect(() => {
    if (queueLoadError) notify.error(t('newTicket.queueError'));
  }, [queueLoadError, t]);

  useEffect(() => {
    if (!open) {
      setText('');
      setContact(null);
      setQueueId('');
      setQueueError(false);
      setNotice(null);
    }
  }, [open]);

  useEffect(() => {
    if (!open || !initialContact) return;
    setContact(initialContact);
    setOptions([initialContact]);
  }, [open, initialContact]);

  useEffect(() => {
    if (queues.length === 1 && queueId === '') setQueueId(queues[0].id);
  }, [queues, queueId]);

  useEffect(() => {
    if (!searchStarts(search)) return setOptions([]);
    let cancelled = false;
    api
      .get<unknown>('/contacts', { searchParam: search.trim() })
      .then((d) => !cancelled && setOptions(asList<Contact>(d, 'contacts')))
      .catch(toastError);
    return () => {
      cancelled = true;
    };
  }, [search]);

  const submit = async () => {
    if (!contact || !user) return;
    if (needsQueue(queueId, user.profile)) return setQueueError(true);
    setBusy(true);
    setNotice(null);
    try {
      const ticket = await api.post<Ticket>('/tickets', {
        contactId: contact.id,
        queueId: queueId === '' ? null : queueId,
        userId: user.id,
        status: 'open',
      });
      onClose();
      onCreated(ticket);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_OTHER_OPEN_TICKET') {
        const outcome = otherTicketOutcome(err.details, user.id);
        if (outcome.kind === 'notice')
          setNotice(t('newTicket.otherUser', { user: outcome.user, queue: outcome.queue }));
        else if (outcome.kind === 'open') {
          onClose();
          onCreated(outcome.ticket);
        } else toastError(err);
      } else toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const list: Option[] =
    searchStarts(text) && !options.some((o) => o.name.toLowerCase() === text.trim().toLowerCase())
      ? [...options, { id: 'new', name: text.trim() }]
      : options;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={phone} aria-labelledby="new-ticket-title">
      <DialogTitle id="new-ticket-title">{t('newTicket.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {notice && <Alert severity="warning">{notice}</Alert>}
          <Autocomplete<Option>
            options={list}
            value={contact}
            onChange={(_, v) => {
              if (v && v.id === 'new') setAdding(v.name);
              else setContact((v as Contact) ?? null);
            }}
            inputValue={text}
            onInputChange={(_, v) => setText(v)}
            filterOptions={(x) => x}
            getOptionLabel={(o) =>
              o.id === 'new'
                ? t('newTicket.addContact', { name: o.name })
                : `${o.name} - ${shownNumber((o as Contact).number, t)}`
            }
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={searchStarts(text) ? t('newTicket.noOptions') : t('newTicket.typeMore')}
            renderInput={(params) => <TextField {...params} label={t('newTicket.contact')} autoFocus />}
          />
          <TextField
            select
            label={t('newTicket.queue')}
            value={queueId}
            onChange={(e) => {
              setQueueId(e.target.value === '' ? '' : Number(e.target.value));
              setQueueError(false);
            }}
            error={queueError}
            helperText={queueError ? t('newTicket.selectQueue') : undefined}
            required={user?.profile !== 'admin'}
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
        <Button variant="contained" onClick={() => void submit()} disabled={!contact || busy}>
          {t('newTicket.create')}
        </Button>
      </DialogActions>
      <ContactModal
        open={adding !== null}
        initialName={adding ?? ''}
        onClose={() => setAdding(null)}
        onSaved={(c) => {
          setContact(c);
          setOptions([c]);
        }}
      />
    </Dialog>
  );
}
