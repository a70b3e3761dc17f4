import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Grid,
  IconButton,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import useSWRInfinite from 'swr/infinite';
import { useTranslation } from 'react-i18next';
import type { Campaign, CampaignReport } from '#shared/schemas/campaigns';
import { api } from '../api/client';
import { formatDateTime } from '../lib/format';
import { useOnReconnect, useRealtimeEvent } from '../realtime/RealtimeProvider';
import { liveMutation } from '../realtime/cache';
import { PauseNotice } from './PauseNotice';
import { REPORT_RELOAD_AFTER_FINISH_MS, STATUS_COLOR, progressPercent } from './campaign-rules';
import { shownNumber } from '../contacts/contact-number';

/**
 * A campaign's report (management.md 4): valid contacts, delivered, read, failed, and progress =
 * delivered / valid contacts. Live: each `campaign` event of this campaign updates the counters,
 * and a FINALIZADA reloads the report 5 seconds later.
 */
export default function CampaignReportPage() {
  const { t } = useTranslation(['campaigns', 'common']);
  const navigate = useNavigate();
  const id = Number(useParams().campaignId);
  const { data, error, mutate, setSize, size, isValidating } = useSWRInfinite<CampaignReport>(
    (index, prev: CampaignReport | null) =>
      prev && !prev.hasMore ? null : ([`/campaigns/${id}/report`, index === 0 ? undefined : prev?.cursor] as const),
    ([path, cursor]: readonly [string, string | undefined]) => api.get<CampaignReport>(path, { cursor }),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  useOnReconnect(() => void mutate());
  const reload = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (reload.current && clearTimeout(reload.current)), []);

  useRealtimeEvent<{ action: string; record?: Campaign; id?: number }>('campaign', (ev) => {
    if (ev.action === 'delete' && Number(ev.id) === id) return void navigate('/campaigns');
    const record = ev.record;
    if (!record || record.id !== id) return;
    void mutate(
      (pages) =>
        pages?.map((p, i) =>
          // counter updates can arrive out of order: an older record never replaces a newer one
          i === 0 && !(p.campaign.updatedAt > record.updatedAt)
            ? {
                ...p,
                campaign: { ...p.campaign, ...record },
                validContacts: record.validContacts,
                sent: record.sent,
                delivered: record.delivered,
                read: record.read,
                failed: record.failed,
              }
            : p,
        ),
      liveMutation(data),
    );
    if (record.status === 'FINALIZADA' && !reload.current)
      reload.current = setTimeout(() => {
        reload.current = null;
        void mutate();
      }, REPORT_RELOAD_AFTER_FINISH_MS);
  });

  const first = data?.[0];
  const campaign = first?.campaign;
  const shipping = (data ?? []).flatMap((p) => p.shipping);
  const hasMore = Boolean(data?.[data.length - 1]?.hasMore);
  const progress = first ? progressPercent(first.delivered, first.validContacts) : 0;

  const card = (label: string, value: number | string, testId: string) => (
    <Grid size={{ xs: 6, md: 3 }}>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="overline" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h4" data-testid={testId}>
            {value}
          </Typography>
        </CardContent>
      </Card>
    </Grid>
  );

  if (error && !data)
    return (
      <Box sx={{ p: 2 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/campaigns')}>
          {t('reportPage.back')}
        </Button>
        <Typography sx={{ p: 1 }} role="alert">
          {t('reportPage.notFound')}
        </Typography>
      </Box>
    );

  return (
    <Box sx={{ p: 2, height: '100%', overflow: 'auto' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <IconButton aria-label={t('reportPage.back')} onClick={() => void navigate('/campaigns')}>
          <ArrowBackIcon />
        </IconButton>
        <Typography variant="h5" component="h1">
          {t('reportPage.title', { name: campaign?.name ?? '' })}
        </Typography>
        {campaign && (
          <Chip
            color={STATUS_COLOR[campaign.status]}
            label={t(`status.${campaign.status}`)}
            data-testid="report-status"
          />
        )}
        <Box sx={{ flex: 1 }} />
        {campaign?.scheduledAt && (
          <Typography variant="body2" color="text.secondary">
            {t('reportPage.scheduledAt', { date: formatDateTime(campaign.scheduledAt) })}
          </Typography>
        )}
        {campaign?.completedAt && (
          <Typography variant="body2" color="text.secondary">
            {t('reportPage.completedAt', { date: formatDateTime(campaign.completedAt) })}
          </Typography>
        )}
      </Stack>
      {campaign && (
        <Box sx={{ mb: 2 }}>
          <PauseNotice campaign={campaign} />
        </Box>
      )}
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {card(t('reportPage.validContacts'), first?.validContacts ?? 0, 'report-valid')}
        {card(t('reportPage.delivered'), first?.delivered ?? 0, 'report-delivered')}
        {card(t('reportPage.read'), first?.read ?? 0, 'report-read')}
        {card(t('reportPage.failed'), first?.failed ?? 0, 'report-failed')}
      </Grid>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="subtitle1">{t('reportPage.progress')}</Typography>
          <Typography variant="subtitle1" data-testid="report-progress">
            {progress}%
          </Typography>
        </Stack>
        <LinearProgress
          variant="determinate"
          value={progress}
          aria-label={t('reportPage.progressLabel')}
          sx={{ height: 10, borderRadius: 5 }}
        />
      </Paper>
      <Paper variant="outlined">
        <Typography variant="subtitle1" sx={{ p: 2, pb: 0 }}>
          {t('reportPage.shipping')}
        </Typography>
        <Table size="small" aria-label={t('reportPage.shipping')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('reportPage.columns.name')}</TableCell>
              <TableCell>{t('reportPage.columns.number')}</TableCell>
              <TableCell>{t('reportPage.columns.status')}</TableCell>
              <TableCell>{t('reportPage.columns.deliveredAt')}</TableCell>
              <TableCell>{t('reportPage.columns.readAt')}</TableCell>
              <TableCell>{t('reportPage.columns.error')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shipping.map((s, i) => (
              <TableRow key={s.number || `left-${i}`}>
                <TableCell>{s.name}</TableCell>
                <TableCell>{shownNumber(s.number, t)}</TableCell>
                <TableCell>{t(`reportPage.shippingStatus.${s.status}`)}</TableCell>
                <TableCell>{formatDateTime(s.deliveredAt)}</TableCell>
                <TableCell>{formatDateTime(s.readAt)}</TableCell>
                <TableCell>
                  {s.status === 'skipped' ? t(`reportPage.skipReasons.${s.error}`) : (s.error ?? '')}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {hasMore && (
          <Box sx={{ p: 1, textAlign: 'center' }}>
            <Button onClick={() => void setSize(size + 1)} disabled={isValidating}>
              {t('reportPage.more')}
            </Button>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
