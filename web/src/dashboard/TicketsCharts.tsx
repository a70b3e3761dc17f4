import { useEffect, useState } from 'react';
import { Button, Grid, Paper, Stack, TextField, Typography, useTheme } from '@mui/material';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { useApi } from '../api/swr';
import { notify } from '../components/toast';
import { defaultRange } from './query';
import { formatDate } from '../lib/format';

type Row = Record<string, string | number>;

function ChartCard({
  title,
  path,
  xKey,
  yKey,
  errorKey,
}: {
  title: string;
  path: string;
  xKey: (r: Row) => string;
  yKey: string;
  errorKey: string;
}) {
  const { t } = useTranslation('dashboard');
  const theme = useTheme();
  const [range, setRange] = useState(defaultRange);
  const [applied, setApplied] = useState(range);
  const { data, error } = useApi<{ data?: Row[]; count?: number } | Row[]>(path, {
    initialDate: applied.dateFrom,
    finalDate: applied.dateTo,
  });
  useEffect(() => {
    if (error) notify.error(t(errorKey));
  }, [error, errorKey, t]);
  const rows = (Array.isArray(data) ? data : (data?.data ?? [])).map((r) => ({
    label: xKey(r),
    value: Number(r[yKey]) || 0,
  }));
  const total = rows.reduce((s, r) => s + r.value, 0);
  return (
    <Paper sx={{ p: 2 }}>
      <Typography variant="h6" component="h2">
        {title}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          ({t('charts.total', { count: total })})
        </Typography>
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1, alignItems: { sm: 'center' }, my: 1.5 }}>
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
        <Button variant="outlined" onClick={() => setApplied(range)}>
          {t('filters.apply')}
        </Button>
      </Stack>
      <div style={{ width: '100%', height: 260 }} role="img" aria-label={title}>
        <ResponsiveContainer>
          <BarChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
            <XAxis dataKey="label" stroke={theme.palette.text.secondary} fontSize={12} />
            <YAxis allowDecimals={false} stroke={theme.palette.text.secondary} fontSize={12} />
            <Tooltip
              contentStyle={{
                background: theme.palette.background.paper,
                border: `1px solid ${theme.palette.divider}`,
              }}
            />
            <Bar dataKey="value" name={t('charts.tickets')} fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </Paper>
  );
}

/** Tickets per user and per day (per hour for a single day), each with its own date range. */
export function TicketsCharts() {
  const { t } = useTranslation('dashboard');
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title={t('charts.ticketsUsers')}
          path="/dashboard/ticketsUsers"
          xKey={(r) => String(r.nome ?? r.name ?? '')}
          yKey="quantidade"
          errorKey="charts.usersError"
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title={t('charts.ticketsDay')}
          path="/dashboard/ticketsDay"
          xKey={(r) => (r.horario !== undefined ? `${r.horario}h` : formatDate(String(r.data ?? '')).slice(0, 5))}
          yKey="total"
          errorKey="charts.dayError"
        />
      </Grid>
    </Grid>
  );
}
