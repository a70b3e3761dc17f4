import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  Avatar,
  Badge,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Popover,
  Typography,
} from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { useApi } from '../api/swr';
import { useRealtimeEvent, useRoom } from '../realtime/RealtimeProvider';
import { isNotifiable } from '../tickets/membership';
import { toPage, type Message, type Ticket } from '../tickets/types';
import { playChime } from '../lib/preferences';
import { formatListStamp } from '../lib/format';
import { liveMutation } from '../realtime/cache';

/** The bell (2.10): unread tickets, live from events; a chime for messages from contacts. */
export function NotificationsPopover() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const allTicket = user?.allTicket ?? 'desabled';
  const { data, mutate } = useApi<unknown>('/tickets', { withUnreadMessages: 'true', showAll: 'false' });
  useRoom('joinNotification');
  // The conversation on screen marks its arrivals read: it is never in the bell, nor does it chime.
  const openUuid = useLocation().pathname.match(/^\/tickets\/([\w-]+)$/)?.[1];
  const isOpenHere = (ticket: Ticket) => ticket.uuid === openUuid && document.visibilityState === 'visible';
  const tickets = toPage<Ticket>(data, 'tickets').items.filter(
    (tk) => isNotifiable(tk, allTicket) && tk.uuid !== openUuid,
  );

  const upsert = (ticket: Ticket) =>
    mutate((d: unknown) => {
      const page = toPage<Ticket>(d, 'tickets');
      const rest = page.items.filter((x) => x.id !== ticket.id);
      return { tickets: isNotifiable(ticket, allTicket) ? [ticket, ...rest] : rest, hasMore: page.hasMore };
    }, liveMutation(data));

  useRealtimeEvent<{ action: string; ticket?: Ticket; ticketId?: number }>('ticket', (ev) => {
    if (ev.action === 'update' && ev.ticket) void upsert(ev.ticket);
    if ((ev.action === 'delete' || ev.action === 'updateUnread') && ev.ticketId !== undefined)
      void mutate(
        (d: unknown) => ({
          ...toPage<Ticket>(d, 'tickets'),
          tickets: toPage<Ticket>(d, 'tickets').items.filter((x) => x.id !== ev.ticketId),
        }),
        liveMutation(data),
      );
  });
  useRealtimeEvent<{ action: string; message?: Message; ticket?: Ticket }>('appMessage', (ev) => {
    if (ev.action !== 'create' || !ev.ticket || ev.message?.fromMe || isOpenHere(ev.ticket)) return;
    void upsert(ev.ticket);
    if (isNotifiable(ev.ticket, allTicket) || ev.ticket.status === 'pending') playChime();
  });

  return (
    <>
      <Tooltip title={t('topbar.notifications')}>
        <IconButton color="inherit" aria-label={t('topbar.notifications')} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={tickets.length} color="error">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <List sx={{ width: 320, maxHeight: 400, overflowY: 'auto' }} aria-label={t('topbar.notifications')}>
          {tickets.length === 0 && (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t('topbar.noTickets')}
            </Typography>
          )}
          {tickets.map((tk) => (
            <ListItemButton
              key={tk.id}
              onClick={() => {
                setAnchor(null);
                void navigate(`/tickets/${tk.uuid}`);
              }}
            >
              <ListItemAvatar>
                <Avatar src={tk.contact?.profilePicUrl ?? undefined} alt={tk.contact?.name} />
              </ListItemAvatar>
              <ListItemText
                primary={tk.contact?.name}
                secondary={`${formatListStamp(tk.updatedAt)} · ${tk.lastMessage ?? ''}`}
                slotProps={{ secondary: { noWrap: true } }}
              />
            </ListItemButton>
          ))}
        </List>
      </Popover>
    </>
  );
}
