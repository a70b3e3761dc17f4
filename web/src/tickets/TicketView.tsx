import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  IconButton,
  Menu,
  MenuItem,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import UndoIcon from '@mui/icons-material/Undo';
import CheckIcon from '@mui/icons-material/Check';
import ReplayIcon from '@mui/icons-material/Replay';
import { useTranslation } from 'react-i18next';
import { usePhone } from '../components/usePhone';
import { DEBOUNCE_MS } from '#shared/constants';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useConfirm } from '../components/ConfirmProvider';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { useAuth } from '../auth/AuthProvider';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { MessagesList } from '../messages/MessagesList';
import { conversationHint } from '../messages/useMessages';
import { Composer } from '../messages/Composer';
import { mayOpenTicket, viewerOf } from './membership';
import { ticketActions } from './api';
import { TagPicker } from './TagPicker';
import { ticketMenuItems, type TicketMenuItem } from './ticket-menu';
import { SlaCountdown } from '../sla/SlaCountdown';
import { useCloudWindow } from './useCloudWindow';
import type { Message, Ticket } from './types';
import { can } from '#shared/permissions';
import { lockHolder, mayTakeOver } from '#shared/presence';
import { useSettings } from '../settings/useSettings';
import { useTicketPresence } from '../presence/usePresence';
import { TypingLine } from '../presence/TypingLine';
import { shownNumber } from '../contacts/contact-number';
import { formatDateTime } from '../lib/format';
import { ProvideCommands } from '../keyboard/commands';
import { ariaKeys } from '../keyboard/shortcuts';

const ContactDrawer = lazy(() => import('../contacts/ContactDrawer').then((m) => ({ default: m.ContactDrawer })));
const TransferModal = lazy(() => import('./TransferModal').then((m) => ({ default: m.TransferModal })));
// someone else's avatars and the lock notice: fetched when they show or just after the ticket does (issue 25)
const loadPresence = () => import('../presence/TicketPresence');
const ViewerAvatars = lazy(() => loadPresence().then((m) => ({ default: m.ViewerAvatars })));
const LockNotice = lazy(() => loadPresence().then((m) => ({ default: m.LockNotice })));
// the Cloud API window's chip loads for a ticket of a Cloud API number only
const CloudWindowChip = lazy(() => import('./CloudWindowChip'));
const ScheduleModal = lazy(() => import('./ScheduleModal').then((m) => ({ default: m.ScheduleModal })));
const SnoozeModal = lazy(() => import('./SnoozeModal').then((m) => ({ default: m.SnoozeModal })));

/** The open ticket (2.4): header with actions and tags, messages, composer, contact drawer. */
export function TicketView({ uuid, onBack }: { uuid: string; onBack?(): void }) {
  const { t } = useTranslation('tickets');
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  // on a phone Return joins the options menu, leaving the contact's name room beside Resolve
  const phone = usePhone();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const { user, plan } = useAuth();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [modal, setModal] = useState<'transfer' | 'schedule' | 'snooze' | null>(null);
  const [busy, setBusy] = useState(false);
  const { value: setting } = useSettings();
  const { viewers, typists } = useTicketPresence(ticket?.id ?? 0, user?.id);
  const { left: windowLeft, templates } = useCloudWindow({
    whatsappId: ticket?.whatsappId ?? 0,
    customerMessageAt: ticket?.customerMessageAt,
  });
  const shown = ticket !== null;
  useEffect(() => {
    if (shown) void loadPresence();
  }, [shown]);

  // Loaded by uuid after 500 ms, so fast clicking through the list does not fire a load per row.
  useEffect(() => {
    setTicket(null);
    setReplyTo(null);
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const loaded = await api.get<Ticket>(`/tickets/u/${uuid}`);
        if (cancelled) return;
        if (user && !mayOpenTicket(loaded, viewerOf(user))) {
          notify.error(t('access.unauthorized'));
          return navigate('/tickets', { replace: true });
        }
        setTicket(loaded);
      } catch (err) {
        if (cancelled) return;
        if (err instanceof ApiError && (err.code === 'ERR_NO_PERMISSION' || err.status === 403))
          notify.error(t('access.unauthorized'));
        else toastError(err);
        void navigate('/tickets', { replace: true });
      }
    }, DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [uuid, user, navigate, t]);

  useRealtimeEvent<{ action: string; ticket?: Ticket; ticketId?: number }>('ticket', (ev) => {
    if (!ticket) return;
    if (ev.action === 'update' && ev.ticket?.id === ticket.id)
      setTicket((cur) => (cur ? { ...cur, ...ev.ticket } : cur));
    if (ev.action === 'delete' && Number(ev.ticketId) === ticket.id) void navigate('/tickets', { replace: true });
  });

  if (!ticket || !user) {
    return (
      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label={t('manager.loadMore')} />
      </Box>
    );
  }

  const act = async (fn: () => Promise<Ticket | undefined>, after: 'stay' | 'list') => {
    setBusy(true);
    try {
      const saved = await fn();
      if (saved) setTicket((cur) => (cur ? { ...cur, ...saved } : cur));
      if (after === 'list') void navigate('/tickets');
      else void navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (
      !(await confirm({
        message: t('header.deleteConfirm', { name: ticket.contact?.name ?? '' }),
        confirmLabel: t('header.delete'),
      }))
    )
      return;
    try {
      await ticketActions.remove(ticket);
      void navigate('/tickets');
    } catch (err) {
      toastError(err);
    }
  };

  // the soft lock (issue 24): another attendant handles it; admins (or all, when allowed) take it over
  const holder = lockHolder(ticket, user.id) !== null ? (ticket.user?.name ?? '') : null;
  const canTakeOver = mayTakeOver(can(user.profile, 'tickets-manager:showall'), setting('takeoverByAnyUser'));
  const takeOver = () =>
    void act(async () => {
      const taken = await ticketActions.takeOver(ticket);
      notify.success(t('lock.takenOver'));
      return taken;
    }, 'stay');

  const wake = () =>
    void act(async () => {
      const woken = await ticketActions.wake(ticket);
      notify.success(t('header.woken'));
      return woken;
    }, 'stay');

  // the buttons' handlers, which the keyboard shortcuts and the command bar run too (issue 40 item 5)
  const accept = () => void act(() => ticketActions.accept(ticket, user.id), 'stay');
  const resolve = () => void act(() => ticketActions.resolve(ticket, user.id), 'list');
  const menuItems = ticketMenuItems(user.profile, plan, ticket);

  const choose = (item: TicketMenuItem) => {
    setMenu(null);
    if (item === 'delete') void remove();
    else if (item === 'wake') wake();
    else setModal(item);
  };

  return (
    <Box sx={{ display: 'flex', flex: 1, minHeight: 0, minWidth: 0 }}>
      <ProvideCommands
        slot="ticket"
        value={{
          id: ticket.id,
          uuid: ticket.uuid,
          accept: ticket.status === 'pending' && !busy ? accept : undefined,
          resolve: ticket.status === 'open' && !busy ? resolve : undefined,
          transfer: menuItems.includes('transfer') ? () => setModal('transfer') : undefined,
        }}
      />
      <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 }}>
        <Paper square elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, px: 1, py: 0.75 }}>
            {onBack && (
              <IconButton aria-label={t('header.back')} onClick={onBack}>
                <ArrowBackIcon />
              </IconButton>
            )}
            <Box
              component="button"
              onClick={() => setDrawer((v) => !v)}
              aria-label={t('header.contactInfo')}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                flex: 1,
                minWidth: 0,
                border: 0,
                bgcolor: 'transparent',
                color: 'inherit',
                cursor: 'pointer',
                textAlign: 'left',
                p: 0,
                font: 'inherit',
              }}
            >
              <Avatar src={ticket.contact?.profilePicUrl ?? undefined} alt={ticket.contact?.name}>
                {ticket.contact?.name?.slice(0, 1)}
              </Avatar>
              <Box sx={{ minWidth: 0 }}>
                <Typography noWrap sx={{ fontWeight: 600 }}>
                  {ticket.contact?.name}{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    #{ticket.id}
                  </Typography>
                </Typography>
                {ticket.contact && !ticket.contact.number && !ticket.isGroup && (
                  <Typography variant="caption" color="text.secondary" noWrap component="p">
                    {shownNumber(ticket.contact.number, t)}
                  </Typography>
                )}
                {ticket.user?.name && (
                  <Typography variant="caption" color="text.secondary" noWrap component="p">
                    {holder !== null
                      ? t('lock.handledBy', { name: holder })
                      : t('header.assignedTo', { name: ticket.user.name })}
                  </Typography>
                )}
                {ticket.status === 'open' && ticket.snooze && (
                  <Typography variant="caption" color="warning.main" noWrap component="p">
                    {ticket.snooze.until
                      ? t('header.snoozedUntil', { time: formatDateTime(ticket.snooze.until) })
                      : t('header.snoozedUntilCustomer')}
                  </Typography>
                )}
                <TypingLine typists={typists} />
              </Box>
            </Box>
            <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
              <SlaCountdown ticket={ticket} />
              {ticket.status !== 'closed' && windowLeft !== null && (
                <Suspense fallback={null}>
                  <CloudWindowChip left={windowLeft} />
                </Suspense>
              )}
              {viewers.length > 0 && (
                <Suspense fallback={null}>
                  <ViewerAvatars viewers={viewers} />
                </Suspense>
              )}
              {ticket.status === 'pending' && (
                <Tooltip title={`${t('header.accept')} (${ariaKeys('accept')})`} describeChild>
                  <Button
                    variant="contained"
                    color="success"
                    size="small"
                    disabled={busy}
                    aria-keyshortcuts={ariaKeys('accept')}
                    onClick={accept}
                  >
                    {t('header.accept')}
                  </Button>
                </Tooltip>
              )}
              {ticket.status === 'open' && (
                <>
                  {phone ? null : narrow ? (
                    <Tooltip title={t('header.return')}>
                      <IconButton
                        aria-label={t('header.return')}
                        disabled={busy}
                        onClick={() => void act(() => ticketActions.return(ticket), 'list')}
                      >
                        <UndoIcon />
                      </IconButton>
                    </Tooltip>
                  ) : (
                    <Button
                      size="small"
                      startIcon={<UndoIcon />}
                      disabled={busy}
                      onClick={() => void act(() => ticketActions.return(ticket), 'list')}
                    >
                      {t('header.return')}
                    </Button>
                  )}
                  {narrow ? (
                    <Tooltip title={`${t('header.resolve')} (${ariaKeys('resolve')})`}>
                      <IconButton
                        aria-label={t('header.resolve')}
                        aria-keyshortcuts={ariaKeys('resolve')}
                        color="success"
                        disabled={busy}
                        onClick={resolve}
                      >
                        <CheckIcon />
                      </IconButton>
                    </Tooltip>
                  ) : (
                    <Tooltip title={`${t('header.resolve')} (${ariaKeys('resolve')})`} describeChild>
                      <Button
                        size="small"
                        variant="contained"
                        color="success"
                        startIcon={<CheckIcon />}
                        disabled={busy}
                        aria-keyshortcuts={ariaKeys('resolve')}
                        onClick={resolve}
                      >
                        {t('header.resolve')}
                      </Button>
                    </Tooltip>
                  )}
                </>
              )}
              {ticket.status === 'closed' && (
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<ReplayIcon />}
                  disabled={busy}
                  onClick={() => void act(() => ticketActions.reopen(ticket, user.id), 'stay')}
                >
                  {t('header.reopen')}
                </Button>
              )}
              <IconButton aria-label={t('header.options')} onClick={(e) => setMenu(e.currentTarget)}>
                <MoreVertIcon />
              </IconButton>
              <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
                {phone && ticket.status === 'open' && (
                  <MenuItem
                    disabled={busy}
                    onClick={() => {
                      setMenu(null);
                      void act(() => ticketActions.return(ticket), 'list');
                    }}
                  >
                    {t('header.return')}
                  </MenuItem>
                )}
                {menuItems.map((item) => (
                  <MenuItem
                    key={item}
                    aria-keyshortcuts={item === 'transfer' ? ariaKeys('transfer') : undefined}
                    onClick={() => choose(item)}
                  >
                    {t(`header.${item}`)}
                  </MenuItem>
                ))}
              </Menu>
            </Stack>
          </Stack>
          <TagPicker ticket={ticket} onChange={(tags) => setTicket((cur) => (cur ? { ...cur, tags } : cur))} />
        </Paper>
        <MessagesList ticketId={ticket.id} conversation={conversationHint(ticket)} onReply={setReplyTo} />
        {holder !== null ? (
          <Suspense fallback={null}>
            <LockNotice holder={holder} canTakeOver={canTakeOver} busy={busy} onTakeOver={takeOver} />
          </Suspense>
        ) : (
          <Composer
            ticket={ticket}
            windowClosed={windowLeft === 0}
            cloud={templates}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
          />
        )}
      </Box>
      <MountWhenOpened open={drawer}>
        <ContactDrawer ticket={ticket} open={drawer} onClose={() => setDrawer(false)} />
      </MountWhenOpened>
      <MountWhenOpened open={modal === 'transfer'}>
        <TransferModal
          ticket={ticket}
          open={modal === 'transfer'}
          onClose={() => setModal(null)}
          onDone={() => navigate('/tickets')}
        />
      </MountWhenOpened>
      <MountWhenOpened open={modal === 'schedule'}>
        <ScheduleModal ticket={ticket} open={modal === 'schedule'} onClose={() => setModal(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={modal === 'snooze'}>
        <SnoozeModal
          ticket={ticket}
          open={modal === 'snooze'}
          onClose={() => setModal(null)}
          onDone={(saved) => {
            setModal(null);
            if (saved) setTicket((cur) => (cur ? { ...cur, ...saved } : cur));
            // set aside: back to the list, as after resolving
            void navigate('/tickets');
          }}
        />
      </MountWhenOpened>
    </Box>
  );
}
