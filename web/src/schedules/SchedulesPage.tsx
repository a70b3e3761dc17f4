import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Box,
  Chip,
  IconButton,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useTheme,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ViewListIcon from '@mui/icons-material/ViewList';
import { Calendar, type View } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { Schedule } from '#shared/schemas/schedules';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { formatDateTime } from '../lib/format';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { ScheduleDialog } from './ScheduleDialog';
import {
  STATUS_COLOR,
  STATUS_FILTERS,
  contactIdParam,
  countByStatus,
  filterByStatus,
  isEditable,
  scheduleLocalizer,
  statusDetail,
  toEvents,
  type ScheduleEvent,
  type StatusFilter,
} from './schedule-view';

type DialogState = { schedule: Schedule | null; contactId?: number | null; sendAt?: Date | null } | null;

/**
 * The schedules page (management.md "Schedules"): a calendar whose week starts on Monday, or a list,
 * both filtered by status; `?contactId=` opens the add dialog with that contact. Live through the
 * `schedule` event.
 */
export default function SchedulesPage() {
  const { t, i18n } = useTranslation(['schedules', 'common']);
  const theme = useTheme();
  const confirmedDelete = useConfirmedDelete();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<Schedule>('/schedules', 'schedules', { searchParam: search });
  const [mode, setMode] = useState<'calendar' | 'list'>('calendar');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [view, setView] = useState<View>('month');
  const [date, setDate] = useState(() => new Date());
  const [dialog, setDialog] = useState<DialogState>(() => {
    const contactId = contactIdParam(window.location.search);
    return contactId ? { schedule: null, contactId } : null;
  });

  // The calendar shows every schedule: keep loading pages until there are no more.
  const { hasMore, loadMore } = list;
  useEffect(() => {
    if (hasMore) loadMore();
  }, [hasMore, loadMore]);

  useRealtimeEvent<{ action: string; schedule?: Schedule; scheduleId?: number }>('schedule', (ev) => {
    if (ev.action === 'delete' && ev.scheduleId !== undefined) list.remove(Number(ev.scheduleId));
    else if (ev.schedule) {
      list.upsert(ev.schedule);
      setDialog((d) => (d?.schedule?.id === ev.schedule?.id ? { ...d, schedule: ev.schedule ?? null } : d));
    }
  });

  const counts = useMemo(() => countByStatus(list.items), [list.items]);
  const shown = useMemo(() => filterByStatus(list.items, status), [list.items, status]);
  const events = useMemo(() => toEvents(shown), [shown]);

  const closeDialog = () => {
    setDialog(null);
    if (params.has('contactId')) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };

  const contactName = (s: Schedule) => s.contact?.name ?? `#${s.contactId}`;
  const detailOf = (s: Schedule) => {
    const detail = statusDetail(s);
    return detail ? t(detail.key, detail.values) : undefined;
  };
  const remove = (s: Schedule) =>
    confirmedDelete({
      message: t('confirmDelete', { name: contactName(s) }),
      path: `/schedules/${s.id}`,
      onDeleted: () => {
        list.remove(s.id);
        setDialog(null);
      },
      deleted: t('deleted'),
    });

  const messages = useMemo(
    () => ({
      today: t('calendar.today'),
      previous: t('calendar.previous'),
      next: t('calendar.next'),
      month: t('calendar.month'),
      week: t('calendar.week'),
      day: t('calendar.day'),
      agenda: t('calendar.agenda'),
      date: t('calendar.date'),
      time: t('calendar.time'),
      event: t('calendar.event'),
      noEventsInRange: t('calendar.noEventsInRange'),
      showMore: (count: number) => t('calendar.showMore', { count }),
    }),
    [t],
  );

  return (
    <PageFrame
      title={t('title')}
      onScroll={mode === 'list' ? list.onScroll : undefined}
      actions={
        <ListToolbar
          searchLabel={t('search')}
          search={text}
          onSearch={setText}
          addLabel={t('add')}
          onAdd={() => setDialog({ schedule: null })}
        >
          <ToggleButtonGroup
            size="small"
            exclusive
            value={mode}
            onChange={(_, v) => v && setMode(v)}
            aria-label={t('views.label')}
          >
            <ToggleButton value="calendar" aria-label={t('views.calendar')} title={t('views.calendar')}>
              <CalendarMonthIcon fontSize="small" />
            </ToggleButton>
            <ToggleButton value="list" aria-label={t('views.list')} title={t('views.list')}>
              <ViewListIcon fontSize="small" />
            </ToggleButton>
          </ToggleButtonGroup>
        </ListToolbar>
      }
    >
      <Tabs
        value={status}
        onChange={(_, v) => setStatus(v)}
        aria-label={t('statusTabs')}
        variant="scrollable"
        sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
      >
        {STATUS_FILTERS.map((s) => (
          <Tab key={s} value={s} label={`${t(`status.${s}`)} (${counts[s]})`} />
        ))}
      </Tabs>
      {mode === 'calendar' ? (
        <Box
          sx={{
            p: 1,
            height: 'calc(100% - 49px)',
            minHeight: 560,
            '& [class*="rbc-"]': { borderColor: 'divider' },
            '& .rbc-off-range-bg': { bgcolor: 'action.hover' },
            '& .rbc-today': { bgcolor: 'action.selected' },
            '& .rbc-toolbar button': { color: 'text.primary' },
            '& .rbc-toolbar button.rbc-active': { bgcolor: 'action.selected' },
          }}
        >
          <Calendar<ScheduleEvent>
            localizer={scheduleLocalizer}
            culture={i18n.language}
            events={events}
            view={view}
            onView={setView}
            date={date}
            onNavigate={setDate}
            views={['month', 'week', 'day', 'agenda']}
            messages={messages}
            popup
            selectable
            onSelectSlot={(slot) =>
              setDialog({ schedule: null, sendAt: slot.start > new Date() ? (slot.start as Date) : null })
            }
            onSelectEvent={(e) => setDialog({ schedule: e.resource })}
            tooltipAccessor={(e) =>
              [`${e.title} (${t(`status.${e.resource.status}`)})`, detailOf(e.resource)].filter(Boolean).join(' ')
            }
            eventPropGetter={(e) => ({
              style: {
                backgroundColor: theme.palette[STATUS_COLOR[e.resource.status]].main,
                color: theme.palette[STATUS_COLOR[e.resource.status]].contrastText,
                border: 0,
              },
            })}
          />
        </Box>
      ) : (
        <>
          <Table size="small" stickyHeader aria-label={t('title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('columns.contact')}</TableCell>
                <TableCell>{t('columns.body')}</TableCell>
                <TableCell>{t('columns.sendAt')}</TableCell>
                <TableCell>{t('columns.status')}</TableCell>
                <TableCell align="center">{t('columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={s.id} hover>
                  <TableCell>{contactName(s)}</TableCell>
                  <TableCell sx={{ maxWidth: 420 }}>
                    <Typography variant="body2" noWrap>
                      {s.body}
                    </Typography>
                  </TableCell>
                  <TableCell>{formatDateTime(s.sendAt)}</TableCell>
                  <TableCell sx={{ maxWidth: 280 }}>
                    <Chip
                      size="small"
                      color={STATUS_COLOR[s.status]}
                      label={t(`status.${s.status}`)}
                      title={detailOf(s)}
                    />
                    {detailOf(s) && (
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {detailOf(s)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      size="small"
                      aria-label={t(isEditable(s) ? 'edit' : 'open', { name: contactName(s) })}
                      onClick={() => setDialog({ schedule: s })}
                    >
                      {isEditable(s) ? <EditIcon /> : <VisibilityIcon />}
                    </IconButton>
                    {isEditable(s) && (
                      <IconButton
                        size="small"
                        aria-label={t('delete', { name: contactName(s) })}
                        onClick={() => void remove(s)}
                      >
                        <DeleteIcon />
                      </IconButton>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {!list.isLoading && shown.length === 0 && (
            <Box sx={{ p: 3, textAlign: 'center' }}>
              <Typography color="text.secondary">{t('empty')}</Typography>
            </Box>
          )}
        </>
      )}
      <ScheduleDialog
        open={dialog !== null}
        schedule={dialog?.schedule ?? null}
        initialContactId={dialog?.contactId}
        initialSendAt={dialog?.sendAt}
        onClose={closeDialog}
        onSaved={list.upsert}
        onDelete={(s) => void remove(s)}
      />
    </PageFrame>
  );
}
