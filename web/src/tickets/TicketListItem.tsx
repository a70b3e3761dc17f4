import { memo } from 'react';
import { Avatar, Badge, Box, Button, Chip, IconButton, ListItemAvatar, ListItemButton, Stack, Tooltip, Typography } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useTranslation } from 'react-i18next';
import { formatListStamp } from '../lib/format';
import type { Ticket } from './types';

interface Props {
  ticket: Ticket;
  selected: boolean;
  canPeek: boolean;
  onOpen(ticket: Ticket): void;
  onAccept(ticket: Ticket): void;
  onPeek(ticket: Ticket): void;
}

/** One row of a ticket list: pending rows are not opened by clicking; they are accepted. */
export const TicketListItem = memo(function TicketListItem({ ticket, selected, canPeek, onOpen, onAccept, onPeek }: Props) {
  const { t } = useTranslation('tickets');
  const pending = ticket.status === 'pending';
  const unread = ticket.unreadMessages ?? 0;
  const name = ticket.contact?.name ?? '';
  return (
    <ListItemButton
      selected={selected}
      onClick={() => !pending && onOpen(ticket)}
      aria-disabled={pending || undefined}
      title={pending ? t('list.pendingHint') : undefined}
      aria-label={name}
      sx={{ borderLeft: 6, borderColor: ticket.queue?.color ?? 'grey.400', cursor: pending ? 'default' : 'pointer', py: 1, alignItems: 'flex-start', gap: 0 }}
      disableRipple={pending}
    >
      <ListItemAvatar sx={{ mt: 0.5 }}>
        <Avatar src={ticket.contact?.profilePicUrl ?? undefined} alt={name}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
      </ListItemAvatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <Typography noWrap sx={{ flex: 1, fontWeight: unread ? 600 : 400 }}>
            {name}
          </Typography>
          <Typography variant="caption" color={unread ? 'success.main' : 'text.secondary'} sx={{ flexShrink: 0 }}>
            {formatListStamp(ticket.updatedAt)}
          </Typography>
        </Stack>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
            {ticket.lastMessage ?? ''}
          </Typography>
          {unread > 0 && <Badge badgeContent={unread} color="success" aria-label={t('list.unread', { count: unread })} sx={{ mr: 1.5 }} />}
        </Stack>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
          {ticket.whatsapp?.name && <Chip size="small" label={ticket.whatsapp.name} variant="outlined" />}
          {ticket.queue && <Chip size="small" label={ticket.queue.name} sx={{ bgcolor: ticket.queue.color, color: '#fff' }} />}
          {ticket.user?.name && ticket.status !== 'pending' && <Chip size="small" label={ticket.user.name} color="primary" variant="outlined" />}
          {(ticket.tags ?? []).map((tag) => (
            <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: '#fff' }} />
          ))}
          <Box sx={{ flex: 1 }} />
          {pending && canPeek && (
            <Tooltip title={t('list.peek')}>
              <IconButton
                size="small"
                aria-label={t('list.peek')}
                onClick={(e) => {
                  e.stopPropagation();
                  onPeek(ticket);
                }}
              >
                <VisibilityIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {pending && (
            <Button
              size="small"
              variant="contained"
              color="success"
              onClick={(e) => {
                e.stopPropagation();
                onAccept(ticket);
              }}
            >
              {t('list.accept')}
            </Button>
          )}
        </Stack>
      </Box>
    </ListItemButton>
  );
});
