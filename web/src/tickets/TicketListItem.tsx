import { memo, type ReactNode } from 'react';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Chip,
  IconButton,
  ListItemAvatar,
  ListItemButton,
  Stack,
  Typography,
} from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import VisibilityIcon from '@mui/icons-material/Visibility';
import WarningIcon from '@mui/icons-material/WarningAmber';
import AlarmOnIcon from '@mui/icons-material/AlarmOn';
import { useTranslation } from 'react-i18next';
import { formatListStamp } from '../lib/format';
import type { Ticket } from './types';
import { SlaCountdown } from '../sla/SlaCountdown';

interface Props {
  ticket: Ticket;
  selected: boolean;
  canPeek: boolean;
  onOpen(ticket: Ticket): void;
  onAccept(ticket: Ticket): void;
  onPeek(ticket: Ticket): void;
}

/** The row preview without WhatsApp's *bold* / _italic_ / ~strike~ markers. */
export const plainPreview = (text: string | null | undefined) =>
  (text ?? '')
    .replace(/([*_~])([^*_~\n]+)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();

/** Pending rows are plain (accepted, never opened by click); the others are buttons that open the ticket. */
function Row({
  pending,
  selected,
  onOpen,
  label,
  title,
  sx,
  children,
}: {
  pending: boolean;
  selected: boolean;
  onOpen(): void;
  label: string;
  title?: string;
  sx: object;
  children: ReactNode;
}) {
  if (pending)
    return (
      <Box title={title} sx={{ ...sx, cursor: 'default' }}>
        {children}
      </Box>
    );
  return (
    <ListItemButton selected={selected} onClick={onOpen} aria-label={label} sx={sx}>
      {children}
    </ListItemButton>
  );
}

/** One row of a ticket list: pending rows are not opened by clicking; they are accepted. */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  selected,
  canPeek,
  onOpen,
  onAccept,
  onPeek,
}: Props) {
  const { t } = useTranslation('tickets');
  const pending = ticket.status === 'pending';
  // the open conversation reads its messages as they arrive: no badge between arrival and read
  const unread = selected ? 0 : (ticket.unreadMessages ?? 0);
  const name = ticket.contact?.name ?? '';
  // back from a snooze (issue 40): the mark, also in the row's accessible name
  const woke = ticket.snoozeWoke
    ? t(ticket.snoozeWoke.by === 'customer' ? 'list.wokeCustomer' : 'list.wokeTime')
    : null;
  return (
    <Row
      pending={pending}
      selected={selected}
      onOpen={() => onOpen(ticket)}
      label={woke ? `${name}, ${woke}` : name}
      title={pending ? t('list.pendingHint') : undefined}
      sx={{
        display: 'flex',
        borderLeft: '6px solid',
        borderLeftColor: ticket.queue?.color ?? 'grey.400',
        borderBottom: '1px solid',
        borderBottomColor: 'divider',
        py: 1,
        px: 2,
        alignItems: 'flex-start',
        gap: 0,
      }}
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
            {plainPreview(ticket.lastMessage)}
          </Typography>
          {woke && (
            <Tooltip title={woke}>
              <AlarmOnIcon role="img" aria-label={woke} color="info" fontSize="small" />
            </Tooltip>
          )}
          {(ticket.undeliveredMessages ?? 0) > 0 && (
            <Tooltip title={t('list.undelivered', { count: ticket.undeliveredMessages })}>
              <WarningIcon
                role="img"
                aria-label={t('list.undelivered', { count: ticket.undeliveredMessages })}
                color="warning"
                fontSize="small"
              />
            </Tooltip>
          )}
          {unread > 0 && (
            <Badge
              badgeContent={unread}
              color="success"
              aria-label={t('list.unread', { count: unread })}
              sx={{ mr: 1.5 }}
            />
          )}
        </Stack>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
          {ticket.whatsapp?.name && <Chip size="small" label={ticket.whatsapp.name} variant="outlined" />}
          {ticket.queue && (
            <Chip size="small" label={ticket.queue.name} sx={{ bgcolor: ticket.queue.color, color: '#fff' }} />
          )}
          {ticket.user?.name && ticket.status !== 'pending' && (
            <Chip size="small" label={ticket.user.name} color="primary" variant="outlined" />
          )}
          {(ticket.tags ?? []).map((tag) => (
            <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: '#fff' }} />
          ))}
          <SlaCountdown ticket={ticket} />
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
    </Row>
  );
});
