import { lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  Badge,
  Box,
  Button,
  FormControlLabel,
  InputAdornment,
  ListItemText,
  MenuItem,
  Paper,
  Select,
  Stack,
  Tab,
  Tabs,
  TextField,
} from '@mui/material';
import { Switch } from '../components/Switch';
import MoveToInboxIcon from '@mui/icons-material/MoveToInbox';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import SearchIcon from '@mui/icons-material/Search';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { can } from '#shared/permissions';
import { DEBOUNCE_MS } from '#shared/constants';
import { useAuth } from '../auth/AuthProvider';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { Checkbox, loadCheckbox } from '../components/Checkbox';
import { asList } from '../realtime/cache';
import { useDebouncedValue } from '../lib/debounce';
import { mayPeek, viewerOf, type ListFilter } from './membership';
import { searchQuery } from './search';
import { queueFilter } from './list-query';
import { ticketActions } from './api';
import { TicketsList } from './TicketsList';
import type { Queue, Tag, Ticket } from './types';

const NewTicketModal = lazy(() => import('./NewTicketModal').then((m) => ({ default: m.NewTicketModal })));
const PeekModal = lazy(() => import('./PeekModal').then((m) => ({ default: m.PeekModal })));

type MainTab = 'open' | 'closed' | 'search';

/** The tickets manager of attendance.md 2.4: Open (Assigned/Pending), Closed, Search; queue filter; Show all. */
export function TicketsManager({ selectedUuid }: { selectedUuid?: string }) {
  const { t } = useTranslation('tickets');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { user } = useAuth();
  const isAdmin = user?.profile === 'admin';
  const mayShowAll = can(user?.profile, 'tickets-manager:showall');
  // the filter menus' checkboxes: fetched once the list has shown, before a menu is opened (issue 25)
  useEffect(() => {
    void loadCheckbox();
  }, []);
  const [tab, setTab] = useState<MainTab>('open');
  const [openTab, setOpenTab] = useState<'open' | 'pending' | 'snoozed'>('open');
  const [showAll, setShowAll] = useState(false);
  const [text, setText] = useState('');
  const [tags, setTags] = useState<number[]>([]);
  const [users, setUsers] = useState<number[]>([]);
  const [counts, setCounts] = useState({ open: 0, pending: 0, snoozed: 0 });
  const [newTicket, setNewTicket] = useState(false);
  const [peek, setPeek] = useState<Ticket | null>(null);
  const debounced = useDebouncedValue(text, DEBOUNCE_MS);

  // Admins filter among every queue; others among their own.
  const { data: queueData } = useApi<unknown>('/queue');
  const queues = useMemo(() => {
    const all = asList<Queue>(queueData, 'queues');
    return isAdmin ? all : all.filter((q) => user?.queueIds?.includes(q.id));
  }, [queueData, isAdmin, user?.queueIds]);
  const [selectedQueues, setSelectedQueues] = useState<number[] | null>(null);
  const queueIds = selectedQueues ?? queues.map((q) => q.id);
  const { data: tagData } = useApi<unknown>(tab === 'search' ? '/tags/list' : null);
  const { data: userData } = useApi<unknown>(tab === 'search' && isAdmin ? '/users/list' : null);
  const tagOptions = asList<Tag>(tagData, 'tags');
  const userOptions = asList<{ id: number; name: string }>(userData, 'users');

  const filters = useMemo(() => {
    const base = { queueIds: queueFilter(selectedQueues, queues), showAll };
    return {
      open: { ...base, tab: 'open' } as ListFilter,
      pending: { ...base, tab: 'pending' } as ListFilter,
      snoozed: { ...base, tab: 'snoozed' } as ListFilter,
      closed: { ...base, tab: 'closed', showAll: true } as ListFilter,
      search: { ...base, tab: 'search', searchParam: searchQuery(debounced).searchParam, tags, users } as ListFilter,
    };
  }, [selectedQueues, queues, showAll, debounced, tags, users]);

  // a ticket opened from the bare list knows it: its Back button then pops history like the browser's
  const openTicket = useCallback(
    (uuid: string) => navigate(`/tickets/${uuid}`, { state: { fromList: pathname === '/tickets' } }),
    [navigate, pathname],
  );
  const onOpen = useCallback((tk: Ticket) => openTicket(tk.uuid), [openTicket]);
  const onAccept = useCallback(
    async (tk: Ticket) => {
      if (!user) return;
      try {
        const saved = await ticketActions.accept(tk, user.id);
        setTab('open');
        setOpenTab('open');
        void openTicket(saved?.uuid ?? tk.uuid);
      } catch (err) {
        toastError(err);
      }
    },
    [openTicket, user],
  );
  const onPeek = useCallback(
    (tk: Ticket) => {
      if (user && !mayPeek(tk, viewerOf(user))) {
        notify.error(t('access.denied'));
        void navigate('/tickets');
        return;
      }
      setPeek(tk);
    },
    [user, navigate, t],
  );
  const setOpenCount = useCallback((n: number) => setCounts((c) => (c.open === n ? c : { ...c, open: n })), []);
  const setPendingCount = useCallback(
    (n: number) => setCounts((c) => (c.pending === n ? c : { ...c, pending: n })),
    [],
  );
  const setSnoozedCount = useCallback(
    (n: number) => setCounts((c) => (c.snoozed === n ? c : { ...c, snoozed: n })),
    [],
  );

  const onSearchText = (value: string) => {
    setText(value);
    if (searchQuery(value).backToOpen && value === '') setTab('open');
  };

  const listProps = { selectedUuid, canPeek: isAdmin, onOpen, onAccept, onPeek };

  return (
    <Paper
      square
      elevation={0}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        borderRight: 1,
        borderColor: 'divider',
        minWidth: 0,
      }}
    >
      <Tabs value={tab} onChange={(_, v) => setTab(v)} variant="fullWidth" aria-label={t('tabs.ticket')}>
        <Tab
          value="open"
          icon={<MoveToInboxIcon />}
          iconPosition="start"
          label={t('tabs.open')}
          sx={{ minHeight: 48 }}
        />
        <Tab
          value="closed"
          icon={<CheckBoxIcon />}
          iconPosition="start"
          label={t('tabs.closed')}
          sx={{ minHeight: 48 }}
        />
        <Tab
          value="search"
          icon={<SearchIcon />}
          iconPosition="start"
          label={t('tabs.search')}
          sx={{ minHeight: 48 }}
        />
      </Tabs>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', gap: 1, px: 1, py: 1, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap' }}
      >
        {tab === 'search' ? (
          <TextField
            size="small"
            placeholder={t('manager.search')}
            value={text}
            onChange={(e) => onSearchText(e.target.value)}
            autoFocus
            sx={{ flex: 1, minWidth: 160 }}
            slotProps={{
              htmlInput: { 'aria-label': t('manager.search') },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        ) : (
          <>
            <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setNewTicket(true)}>
              {t('manager.newTicket')}
            </Button>
            {mayShowAll && (
              <FormControlLabel
                control={<Switch size="small" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />}
                label={t('manager.showAll')}
                sx={{ mr: 0 }}
              />
            )}
          </>
        )}
        <Box sx={{ flex: tab === 'search' ? 0 : 1 }} />
        <Select
          size="small"
          multiple
          displayEmpty
          value={queueIds}
          onChange={(e) => setSelectedQueues((e.target.value as number[]).map(Number))}
          renderValue={() => t('manager.queues')}
          inputProps={{ 'aria-label': t('manager.queues') }}
          sx={{ minWidth: 110 }}
        >
          {queues.map((q) => (
            <MenuItem key={q.id} value={q.id}>
              <Checkbox
                size="small"
                checked={queueIds.includes(q.id)}
                sx={{ color: q.color, '&.Mui-checked': { color: q.color } }}
              />
              <ListItemText primary={q.name} />
            </MenuItem>
          ))}
        </Select>
      </Stack>
      {tab === 'search' && (
        <Stack direction="row" sx={{ gap: 1, px: 1, py: 1, borderBottom: 1, borderColor: 'divider' }}>
          <Select
            size="small"
            multiple
            displayEmpty
            value={tags}
            onChange={(e) => setTags((e.target.value as number[]).map(Number))}
            renderValue={(v) =>
              v.length
                ? tagOptions
                    .filter((x) => v.includes(x.id))
                    .map((x) => x.name)
                    .join(', ')
                : t('manager.tags')
            }
            inputProps={{ 'aria-label': t('manager.tags') }}
            sx={{ flex: 1 }}
          >
            {tagOptions.map((tag) => (
              <MenuItem key={tag.id} value={tag.id}>
                <Checkbox size="small" checked={tags.includes(tag.id)} />
                <ListItemText primary={tag.name} />
              </MenuItem>
            ))}
          </Select>
          {isAdmin && (
            <Select
              size="small"
              multiple
              displayEmpty
              value={users}
              onChange={(e) => setUsers((e.target.value as number[]).map(Number))}
              renderValue={(v) =>
                v.length
                  ? userOptions
                      .filter((x) => v.includes(x.id))
                      .map((x) => x.name)
                      .join(', ')
                  : t('manager.users')
              }
              inputProps={{ 'aria-label': t('manager.users') }}
              sx={{ flex: 1 }}
            >
              {userOptions.map((u) => (
                <MenuItem key={u.id} value={u.id}>
                  <Checkbox size="small" checked={users.includes(u.id)} />
                  <ListItemText primary={u.name} />
                </MenuItem>
              ))}
            </Select>
          )}
        </Stack>
      )}
      {tab === 'open' && (
        <Tabs value={openTab} onChange={(_, v) => setOpenTab(v)} variant="fullWidth" aria-label={t('tabs.open')}>
          <Tab
            value="open"
            label={
              <Badge badgeContent={counts.open} color="primary" max={999} sx={{ pr: 2 }}>
                {t('tabs.assigned')}
              </Badge>
            }
          />
          <Tab
            value="pending"
            label={
              <Badge badgeContent={counts.pending} color="secondary" max={999} sx={{ pr: 2 }}>
                {t('tabs.pending')}
              </Badge>
            }
          />
          <Tab
            value="snoozed"
            label={
              <Badge badgeContent={counts.snoozed} color="default" max={999} sx={{ pr: 2 }}>
                {t('tabs.snoozed')}
              </Badge>
            }
          />
        </Tabs>
      )}
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        {/* The Open lists stay mounted: their badges count live. */}
        <TicketsList
          filter={filters.open}
          visible={tab === 'open' && openTab === 'open'}
          onCount={setOpenCount}
          {...listProps}
        />
        <TicketsList
          filter={filters.pending}
          visible={tab === 'open' && openTab === 'pending'}
          onCount={setPendingCount}
          {...listProps}
        />
        <TicketsList
          filter={filters.snoozed}
          visible={tab === 'open' && openTab === 'snoozed'}
          onCount={setSnoozedCount}
          {...listProps}
        />
        {tab === 'closed' && <TicketsList filter={filters.closed} visible {...listProps} />}
        {tab === 'search' && <TicketsList filter={filters.search} visible {...listProps} />}
      </Box>
      <MountWhenOpened open={newTicket}>
        <NewTicketModal open={newTicket} onClose={() => setNewTicket(false)} onCreated={(tk) => openTicket(tk.uuid)} />
      </MountWhenOpened>
      <MountWhenOpened open={peek !== null}>
        <PeekModal ticket={peek} onClose={() => setPeek(null)} />
      </MountWhenOpened>
    </Paper>
  );
}
