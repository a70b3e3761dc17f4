import { useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Paper,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  Typography,
  useTheme,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../lib/format';
import { formatDuration } from '../sla/deadline';
import type { SlaReport, SlaRow } from '#shared/sla';
import type { AgentMetrics } from '#shared/schemas/knowledge';
import { slaCsv } from './sla-csv';

const minutes = (s: number | null) => (s === null ? null : Math.round((s / 60) * 10) / 10);

/** Offers a text as a file download (the browser saves it; nothing goes to the server). */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function RowsTable({ rows, label }: { rows: SlaRow[]; label: string }) {
  const { t } = useTranslation('sla');
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{t('metrics.name')}</TableCell>
            <TableCell align="right">{t('metrics.firstResponseMedian')}</TableCell>
            <TableCell align="right">{t('metrics.firstResponseP90')}</TableCell>
            <TableCell align="right">{t('metrics.resolutionMedian')}</TableCell>
            <TableCell align="right">{t('metrics.resolutionP90')}</TableCell>
            <TableCell align="right">{t('metrics.breached')}</TableCell>
            <TableCell align="right">{t('metrics.csat')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={7}>{t('metrics.empty')}</TableCell>
            </TableRow>
          )}
          {rows.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.name}</TableCell>
              <TableCell align="right">{formatDuration(r.firstResponse.median)}</TableCell>
              <TableCell align="right">{formatDuration(r.firstResponse.p90)}</TableCell>
              <TableCell align="right">{formatDuration(r.resolution.median)}</TableCell>
              <TableCell align="right">{formatDuration(r.resolution.p90)}</TableCell>
              <TableCell align="right">{r.breached}</TableCell>
              <TableCell align="right">
                {r.csat.percent === null ? '-' : `${r.csat.percent}% (${r.csat.ratings})`}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * Service levels of the dashboard's period (issue 24): the company's medians, p90s, missed
 * deadlines and CSAT, the medians and misses per day, tables per attendant, queue and connection,
 * and the same numbers as a CSV file (with the AI agent's rows when given).
 */
export function SlaSection({
  report,
  range,
  agent,
}: {
  report: SlaReport;
  range?: { from: string; to: string };
  /** the AI agent's metrics of the same period: more rows in the CSV (sla-csv.ts AgentCsv) */
  agent?: AgentMetrics;
}) {
  const { t } = useTranslation('sla');
  const { t: td } = useTranslation('dashboard');
  const theme = useTheme();
  const [tab, setTab] = useState(0);
  const total = report.total;
  const cards = [
    ['firstResponseMedian', formatDuration(total.firstResponse.median)],
    ['firstResponseP90', formatDuration(total.firstResponse.p90)],
    ['resolutionMedian', formatDuration(total.resolution.median)],
    ['resolutionP90', formatDuration(total.resolution.p90)],
    ['breached', String(total.breached)],
    ['csat', total.csat.percent === null ? '-' : `${total.csat.percent}%`],
  ] as const;
  const daily = report.daily.map((d) => ({
    label: formatDate(d.day).slice(0, 5),
    firstResponse: minutes(d.firstResponseMedian),
    resolution: minutes(d.resolutionMedian),
    breached: d.breached,
  }));
  const tables = [
    ['byAttendant', report.attendants],
    ['byQueue', report.queues],
    ['byConnection', report.connections],
  ] as const;
  const exportCsv = () => {
    const csv = slaCsv(
      report,
      {
        columns: [
          t('metrics.dimension'),
          t('metrics.name'),
          t('metrics.responses'),
          `${t('metrics.firstResponseMedian')} (s)`,
          `${t('metrics.firstResponseP90')} (s)`,
          t('metrics.resolved'),
          `${t('metrics.resolutionMedian')} (s)`,
          `${t('metrics.resolutionP90')} (s)`,
          t('metrics.breached'),
          t('metrics.ratings'),
          `${t('metrics.csat')} (%)`,
        ],
        dimensions: {
          attendant: t('metrics.byAttendant'),
          queue: t('metrics.byQueue'),
          connection: t('metrics.byConnection'),
          total: t('metrics.total'),
        },
      },
      agent && {
        metrics: agent,
        labels: {
          columns: [td('agent.handOffs'), `${td('agent.handOffRate')} (%)`, td('agent.calls'), td('agent.tokens')],
          agent: td('agent.csvAgent'),
          people: td('agent.csvPeople'),
        },
      },
    );
    download(`sla-${range?.from ?? ''}-${range?.to ?? ''}.csv`, csv);
  };
  const tooltip = { background: theme.palette.background.paper, border: `1px solid ${theme.palette.divider}` };
  return (
    <Paper component="section" aria-labelledby="sla-title" sx={{ p: 2, mb: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id="sla-title" variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('metrics.title')}
        </Typography>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv}>
          {t('metrics.export')}
        </Button>
      </Stack>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {cards.map(([key, value]) => (
          <Grid key={key} size={{ xs: 6, md: 4, lg: 2 }}>
            <Card variant="outlined">
              <CardContent>
                <Typography variant="body2" color="text.secondary">
                  {t(`metrics.${key}`)}
                </Typography>
                <Typography variant="h6" component="p" aria-label={t(`metrics.${key}`)}>
                  {value}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Typography variant="subtitle2" component="h3">
            {t('metrics.dailyChart')}
          </Typography>
          <Box sx={{ width: '100%', height: 220 }} role="img" aria-label={t('metrics.dailyChart')}>
            <ResponsiveContainer>
              <LineChart data={daily}>
                <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
                <XAxis dataKey="label" stroke={theme.palette.text.secondary} fontSize={12} />
                <YAxis stroke={theme.palette.text.secondary} fontSize={12} />
                <Tooltip contentStyle={tooltip} />
                <Legend />
                <Line
                  type="monotone"
                  dataKey="firstResponse"
                  name={t('metrics.firstResponseMedian')}
                  stroke={theme.palette.primary.main}
                  connectNulls
                />
                <Line
                  type="monotone"
                  dataKey="resolution"
                  name={t('metrics.resolutionMedian')}
                  stroke={theme.palette.secondary.main}
                  connectNulls
                />
              </LineChart>
            </ResponsiveContainer>
          </Box>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Typography variant="subtitle2" component="h3">
            {t('metrics.breachChart')}
          </Typography>
          <Box sx={{ width: '100%', height: 220 }} role="img" aria-label={t('metrics.breachChart')}>
            <ResponsiveContainer>
              <BarChart data={daily}>
                <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
                <XAxis dataKey="label" stroke={theme.palette.text.secondary} fontSize={12} />
                <YAxis allowDecimals={false} stroke={theme.palette.text.secondary} fontSize={12} />
                <Tooltip contentStyle={tooltip} />
                <Bar
                  dataKey="breached"
                  name={t('metrics.breached')}
                  fill={theme.palette.error.main}
                  radius={[4, 4, 0, 0]}
                />
              </BarChart>
            </ResponsiveContainer>
          </Box>
        </Grid>
      </Grid>
      <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {tables.map(([key]) => (
          <Tab key={key} label={t(`metrics.${key}`)} />
        ))}
      </Tabs>
      {tables.map(([key, rows], i) => (
        <Box key={key} hidden={tab !== i}>
          {tab === i && <RowsTable rows={rows} label={t(`metrics.${key}`)} />}
        </Box>
      ))}
    </Paper>
  );
}
