import { useState } from 'react';
import {
  Avatar,
  Box,
  Button,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Toolbar,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useConfirm } from '../components/ConfirmProvider';
import { formatDateTime } from '../lib/format';
import { asList, liveMutation } from '../realtime/cache';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import type { Contact, Ticket } from '../tickets/types';
import { FieldsPanel } from '../custom-fields/FieldsPanel';
import { ContactModal } from './ContactModal';
import { shownNumber } from './contact-number';

interface Note {
  id: number;
  note: string;
  createdAt: string;
  user?: { name: string };
}

/** Section 5: a note is required and at least 2 characters. */
export const validNote = (text: string) => text.trim().length >= 2;

/** Below 600 px the contact name is cut to 10 characters plus an ellipsis (2.9). */
export const drawerName = (name: string, narrow: boolean) =>
  narrow && name.length > 10 ? `${name.slice(0, 10)}...` : name;

export const CONTACT_DRAWER_WIDTH = 320;

/** The contact drawer of 2.9: data, edit, internal notes, custom fields of the contact and the ticket (issue 40), extra info. */
export function ContactDrawer({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose(): void }) {
  const { t } = useTranslation(['contacts', 'common']);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const confirm = useConfirm();
  const { data: contact, mutate } = useApi<Contact>(open ? `/contacts/${ticket.contactId}` : null);
  const { data: notesData, mutate: mutateNotes } = useApi<unknown>(open ? '/ticket-notes/list' : null, {
    ticketId: ticket.id,
    contactId: ticket.contactId,
  });
  const notes = asList<Note>(notesData, 'notes');
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState(false);
  const [editing, setEditing] = useState(false);
  // the ticket's values as last saved here, until the ticket's own update arrives
  const [savedFields, setSavedFields] = useState<{ basis: Ticket['customFields']; values: Ticket['customFields'] }>();
  const ticketFields =
    savedFields && savedFields.basis === ticket.customFields ? savedFields.values : ticket.customFields;
  const shown = contact ?? ticket.contact;

  useRealtimeEvent<{ action: string; contact?: Contact }>('contact', (ev) => {
    if (ev.contact?.id === ticket.contactId)
      void mutate({ ...(contact as Contact), ...ev.contact }, liveMutation(contact));
  });

  const addNote = async () => {
    if (!validNote(note)) return setNoteError(true);
    try {
      await api.post('/ticket-notes', { note: note.trim(), ticketId: ticket.id, contactId: ticket.contactId });
      setNote('');
      setNoteError(false);
      notify.success(t('drawer.noteAdded'));
      void mutateNotes();
    } catch (err) {
      toastError(err);
    }
  };
  const deleteNote = async (id: number) => {
    if (!(await confirm({ message: t('drawer.deleteNoteConfirm') }))) return;
    try {
      await api.delete(`/ticket-notes/${id}`);
      notify.success(t('drawer.noteDeleted'));
      void mutateNotes();
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Drawer
      anchor="right"
      variant={narrow ? 'temporary' : 'persistent'}
      open={open}
      onClose={onClose}
      sx={{
        width: open && !narrow ? CONTACT_DRAWER_WIDTH : 0,
        flexShrink: 0,
        // full width on a phone: above the top bar, or the bar would hide its close button
        ...(narrow && { zIndex: (th) => th.zIndex.drawer + 2 }),
        '& .MuiDrawer-paper': {
          width: narrow ? '100%' : CONTACT_DRAWER_WIDTH,
          position: narrow ? 'fixed' : 'relative',
          boxSizing: 'border-box',
        },
      }}
      slotProps={{ paper: { 'aria-label': t('drawer.title') } as object }}
    >
      <Toolbar variant="dense" sx={{ gap: 1 }}>
        <IconButton aria-label={t('drawer.close')} onClick={onClose} edge="start">
          <CloseIcon />
        </IconButton>
        <Typography variant="subtitle1">{t('drawer.title')}</Typography>
      </Toolbar>
      <Divider />
      <Box sx={{ overflowY: 'auto', p: 2 }}>
        <Stack sx={{ alignItems: 'center', gap: 1 }}>
          <Avatar src={shown?.profilePicUrl ?? undefined} alt={shown?.name} sx={{ width: 120, height: 120 }} />
          <Typography variant="h6" title={shown?.name}>
            {drawerName(shown?.name ?? '', narrow)}
          </Typography>
          {shown?.number || !shown ? (
            <Typography component="a" href={`tel:${shown?.number ?? ''}`} color="text.secondary">
              {shown?.number}
            </Typography>
          ) : (
            !shown.isGroup && <Typography color="text.secondary">{shownNumber(shown.number, t)}</Typography>
          )}
          {shown?.email && (
            <Typography component="a" href={`mailto:${shown.email}`} color="text.secondary">
              {shown.email}
            </Typography>
          )}
          <Button variant="outlined" size="small" onClick={() => setEditing(true)}>
            {t('drawer.edit')}
          </Button>
        </Stack>
        <Paper variant="outlined" sx={{ mt: 2, p: 1.5 }}>
          <Typography variant="subtitle2" gutterBottom>
            {t('drawer.notes')}
          </Typography>
          <TextField
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setNoteError(false);
            }}
            placeholder={t('drawer.notePlaceholder')}
            slotProps={{ htmlInput: { 'aria-label': t('drawer.notePlaceholder') } }}
            multiline
            minRows={2}
            fullWidth
            size="small"
            error={noteError}
            helperText={
              noteError ? (note.trim() ? t('common:validation.short') : t('common:validation.required')) : undefined
            }
          />
          <Button size="small" variant="contained" onClick={() => void addNote()} sx={{ mt: 1 }}>
            {t('drawer.addNote')}
          </Button>
          <List dense>
            {notes.length === 0 && (
              <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
                {t('drawer.noNotes')}
              </Typography>
            )}
            {notes.map((n) => (
              <ListItem
                key={n.id}
                divider
                secondaryAction={
                  <IconButton edge="end" aria-label={t('drawer.deleteNote')} onClick={() => void deleteNote(n.id)}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                }
              >
                <ListItemText primary={n.note} secondary={`${n.user?.name ?? ''} · ${formatDateTime(n.createdAt)}`} />
              </ListItem>
            ))}
          </List>
        </Paper>
        <FieldsPanel
          entity="contact"
          record={contact}
          path={`/contacts/${ticket.contactId}/custom-fields`}
          onSaved={(c) => void mutate(c as Contact, { revalidate: false })}
        />
        <FieldsPanel
          entity="ticket"
          record={{ customFields: ticketFields }}
          path={`/tickets/${ticket.id}/custom-fields`}
          onSaved={(saved) =>
            setSavedFields({ basis: ticket.customFields, values: (saved as Ticket).customFields ?? {} })
          }
        />
      </Box>
      <ContactModal
        open={editing}
        contactId={ticket.contactId}
        onClose={() => setEditing(false)}
        onSaved={(c) => void mutate(c, { revalidate: false })}
      />
    </Drawer>
  );
}
