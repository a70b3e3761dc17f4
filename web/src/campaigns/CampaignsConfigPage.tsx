import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Grid,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import {
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  type CampaignSettings,
  type CampaignSettingsList,
  type ConnectionLimit,
} from '#shared/schemas/campaigns';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { formatDateTime } from '../lib/format';
import { addVariable, parseSettings, variableToken } from './campaign-rules';

/**
 * Campaign settings (management.md 9): message interval, longer interval after N messages, the
 * longer interval, and the campaign variables (a key in use is not added twice); below, the
 * ban-risk limiter's state per connection.
 */
export default function CampaignsConfigPage() {
  const { t } = useTranslation(['campaigns', 'common']);
  const { data, mutate } = useApi<CampaignSettingsList>('/campaign-settings');
  const { data: limits, mutate: reloadLimits } = useApi<ConnectionLimit[]>('/campaigns/limits');
  // every send, pause or restart of a campaign moves the limiter: today's count stays current
  useRealtimeEvent('campaign', () => void reloadLimits());
  const [settings, setSettings] = useState<CampaignSettings>(() => parseSettings(undefined));
  const [variable, setVariable] = useState({ key: '', value: '' });
  const [keyError, setKeyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (data) setSettings(parseSettings(data));
  }, [data]);

  const add = () => {
    const out = addVariable(settings.variables, variable);
    if (!out.ok) return setKeyError(out.reason === 'inUse' ? t('config.keyInUse') : t('common:validation.invalid'));
    setKeyError(null);
    setSettings({ ...settings, variables: out.list });
    setVariable({ key: '', value: '' });
  };

  const save = async () => {
    setBusy(true);
    try {
      await api.post('/campaign-settings', { settings });
      notify.success(t('config.saved'));
      void mutate();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const intervalSelect = (
    name: 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval',
    options: readonly number[],
    unit: 'seconds' | 'messages',
  ) => (
    <TextField
      select
      fullWidth
      label={t(`config.${name}`)}
      value={settings[name]}
      onChange={(e) => setSettings({ ...settings, [name]: Number(e.target.value) })}
    >
      {options.map((o) => (
        <MenuItem key={o} value={o}>
          {o === 0 ? t(unit === 'seconds' ? 'config.noInterval' : 'config.notUsed') : t(`config.${unit}`, { count: o })}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box sx={{ p: 2, height: '100%', overflow: 'auto' }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('config.title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('config.intervals')}
        </Typography>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>{intervalSelect('messageInterval', MESSAGE_INTERVAL_OPTIONS, 'seconds')}</Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            {intervalSelect('longerIntervalAfter', LONGER_INTERVAL_OPTIONS, 'messages')}
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>{intervalSelect('greaterInterval', LONGER_INTERVAL_OPTIONS, 'seconds')}</Grid>
        </Grid>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="subtitle1">{t('config.variables')}</Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t('config.variablesHint', { example: variableToken('promo') })}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ my: 1 }}>
          <TextField
            size="small"
            label={t('config.key')}
            value={variable.key}
            onChange={(e) => setVariable({ ...variable, key: e.target.value })}
            error={Boolean(keyError)}
            helperText={keyError ?? undefined}
          />
          <TextField
            size="small"
            label={t('config.value')}
            value={variable.value}
            onChange={(e) => setVariable({ ...variable, value: e.target.value })}
            sx={{ flex: 1 }}
          />
          <Button variant="outlined" onClick={add} disabled={!variable.key.trim()}>
            {t('config.addVariable')}
          </Button>
        </Stack>
        <Table size="small" aria-label={t('config.variables')}>
          <TableBody>
            {settings.variables.map((v) => (
              <TableRow key={v.key}>
                <TableCell sx={{ width: 200, fontFamily: 'monospace' }}>{variableToken(v.key)}</TableCell>
                <TableCell>{v.value}</TableCell>
                <TableCell align="right" sx={{ width: 60 }}>
                  <IconButton
                    size="small"
                    aria-label={t('config.removeVariable', { key: v.key })}
                    onClick={() =>
                      setSettings({ ...settings, variables: settings.variables.filter((x) => x.key !== v.key) })
                    }
                  >
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      <Box sx={{ mb: 3 }}>
        <Button variant="contained" onClick={() => void save()} disabled={busy}>
          {t('common:buttons.save')}
        </Button>
      </Box>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1">{t('config.limits')}</Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t('config.limitsHint')}
        </Typography>
        <Table size="small" aria-label={t('config.limits')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('config.limitColumns.name')}</TableCell>
              <TableCell align="center">{t('config.limitColumns.today')}</TableCell>
              <TableCell align="center">{t('config.limitColumns.warmingUp')}</TableCell>
              <TableCell>{t('config.limitColumns.paused')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(limits ?? []).map((l) => (
              <TableRow key={l.whatsappId}>
                <TableCell>{l.name}</TableCell>
                <TableCell align="center">
                  {l.sentToday} / {l.dailyCap ?? '∞'}
                </TableCell>
                <TableCell align="center">
                  {l.warmingUp ? t('config.warmingUp', { days: l.ageDays }) : t('config.notWarmingUp')}
                </TableCell>
                <TableCell>
                  {l.pausedReason ? (
                    <Typography variant="body2" color="error">
                      {t(`pauseReason.${l.pausedReason}`)} {formatDateTime(l.pausedAt)}
                    </Typography>
                  ) : (
                    t('config.noPause')
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </Box>
  );
}
