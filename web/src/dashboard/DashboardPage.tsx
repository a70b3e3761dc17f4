import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import {
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  MenuItem,
  Paper,
  Rating,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import CircleIcon from '@mui/icons-material/Circle';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PERIODS, MAX_RATING } from '#shared/constants';
import { useAuth } from '../auth/AuthProvider';
import { homeFor } from '../auth/guard';
import { useApi } from '../api/swr';
import { notify } from '../components/toast';
import { usePhone } from '../components/usePhone';
import { dashboardQuery, defaultRange, formatMinutes, withLiveStatus, type FilterType } from './query';
import { usePresenceList } from '../presence/usePresence';
import { TicketsCharts } from './TicketsCharts';
import { SlaSection } from './SlaSection';
import type { SlaReport } from '#shared/sla';
import type { AgentMetrics } from '#shared/schemas/knowledge';
import { AgentSection } from './AgentSection';

interface DashboardData {
  counters?: Record<string, number>;
  attendants?: { id?: number; name: string; rating: number; avgSupportTime: number; online: boolean }[];
  sla?: SlaReport;
  agent?: AgentMetrics;
  range?: { from: string; to: string };
}

const COUNTERS = [
  'supportHappening',
  'supportPending',
  'supportFinished',
  'newContacts',
  'avgSupportTime',
  'avgWaitTime',
] as const;

/** The dashboard (2.11): counters, date-range or period filter, attendants, charts. */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { user } = useAuth();
  // on a phone the average time moves under the attendant's name: the table fits 390 px
  const phone = usePhone();
  const [type, setType] = useState<FilterType | ''>(1);
  const [range, setRange] = useState(defaultRange);
  const [days, setDays] = useState(0);
  const [query, setQuery] = useState<Record<string, string | number>>(() => {
    const r = defaultRange();
    return { date_from: r.dateFrom, date_to: r.dateTo };
  });
  const allowed = homeFor(user?.profile) === '/';
  const { data } = useApi<DashboardData>(allowed ? '/dashboard' : null, query);
  // who is online now: the top bar's presence list (one GET /presence, then its events)
  const statuses = usePresenceList();
  if (!allowed) return <Navigate to="/tickets" replace />;

  const apply = () => {
    const result = dashboardQuery(type, { ...range, days });
    if ('error' in result) return notify.error(t('filters.selectFilter'));
    setQuery(result.query);
  };
  const counters = data?.counters ?? {};
  const attendants = withLiveStatus(data?.attendants ?? [], statuses);

  return (
    <Box sx={{ p: 2, overflowY: 'auto' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('title')}
      </Typography>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label={t('filters.type')}
            value={type}
            onChange={(e) => setType(Number(e.target.value) as FilterType)}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value={1}>{t('filters.byDate')}</MenuItem>
            <MenuItem value={2}>{t('filters.byPeriod')}</MenuItem>
          </TextField>
          {type === 1 ? (
            <>
              <TextField
                size="small"
                type="date"
                label={t('filters.dateFrom')}
                value={range.dateFrom}
                onChange={(e) => setRange({ ...range, dateFrom: e.target.value })}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                size="small"
                type="date"
                label={t('filters.dateTo')}
                value={range.dateTo}
                onChange={(e) => setRange({ ...range, dateTo: e.target.value })}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </>
          ) : (
            <TextField
              select
              size="small"
              label={t('filters.period')}
              value={days}
              onChange={(e) => setDays(Number(e.target.value))}
              sx={{ minWidth: 180 }}
            >
              {DASHBOARD_PERIODS.map((d) => (
                <MenuItem key={d} value={d}>
                  {d === 0 ? t('filters.none') : t('filters.lastDays', { count: d })}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button variant="contained" onClick={apply}>
            {t('filters.apply')}
          </Button>
        </Stack>
      </Paper>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {COUNTERS.map((key) => (
          <Grid key={key} size={{ xs: 12, sm: 6, md: 4, lg: 2 }}>
            <Card>
              <CardContent>
                <Typography variant="body2" color="text.secondary">
                  {t(`counters.${key}`)}
                </Typography>
                <Typography variant="h5" component="p" aria-label={t(`counters.${key}`)}>
                  {key.startsWith('avg')
                    ? formatMinutes(counters[key])
                    : (counters[key] ?? (key === 'newContacts' ? (counters.leads ?? 0) : 0))}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Paper sx={{ mb: 2 }}>
        <Typography variant="h6" sx={{ p: 2, pb: 0 }}>
          {t('attendants.title')}
        </Typography>
        <TableContainer>
          <Table size="small" aria-label={t('attendants.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('attendants.name')}</TableCell>
                <TableCell>{t('attendants.rating')}</TableCell>
                {!phone && <TableCell>{t('attendants.avgSupportTime')}</TableCell>}
                <TableCell>{t('attendants.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {attendants.length === 0 && (
                <TableRow>
                  <TableCell colSpan={phone ? 3 : 4}>{t('attendants.empty')}</TableCell>
                </TableRow>
              )}
              {attendants.map((a, i) => (
                <TableRow key={a.id ?? i}>
                  <TableCell>
                    {a.name}
                    {phone && (
                      <Typography variant="body2" color="text.secondary">
                        {t('attendants.avgSupportTime')}: {formatMinutes(a.avgSupportTime)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Rating
                      value={Number(a.rating) || 0}
                      max={MAX_RATING}
                      precision={0.1}
                      readOnly
                      size="small"
                      aria-label={t('attendants.ratingLabel', { value: (Number(a.rating) || 0).toFixed(1) })}
                    />
                  </TableCell>
                  {!phone && <TableCell>{formatMinutes(a.avgSupportTime)}</TableCell>}
                  <TableCell>
                    <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
                      <CircleIcon sx={{ fontSize: 12, color: a.online ? 'success.main' : 'error.main' }} />
                      {a.online ? t('attendants.online') : t('attendants.offline')}
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      {data?.agent && <AgentSection metrics={data.agent} />}
      {data?.sla && <SlaSection report={data.sla} range={data.range} agent={data.agent} />}
      <TicketsCharts />
    </Box>
  );
}
