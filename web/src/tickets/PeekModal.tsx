import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { usePhone } from '../components/usePhone';
import { MessagesList } from '../messages/MessagesList';
import { conversationHint } from '../messages/useMessages';
import type { Ticket } from './types';

/** The admin peek (eye icon): the conversation read-only, without accepting the ticket. */
export function PeekModal({ ticket, onClose }: { ticket: Ticket | null; onClose(): void }) {
  const { t } = useTranslation(['tickets', 'common']);
  const phone = usePhone();
  return (
    <Dialog
      open={Boolean(ticket)}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      aria-labelledby="peek-title"
    >
      <DialogTitle id="peek-title">
        {ticket?.contact?.name} · {t('messages.readOnly')}
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <Box sx={{ height: '60vh', display: 'flex', flexDirection: 'column' }}>
          {ticket && <MessagesList ticketId={ticket.id} conversation={conversationHint(ticket)} readOnly />}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
