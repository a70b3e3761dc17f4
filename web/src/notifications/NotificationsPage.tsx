import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  FormGroup,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { PushConfig, PushDevice, PushPreferences } from '#shared/schemas/push';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { notify } from '../components/toast';
import { formatDate } from '../lib/format';
import {
  ALL_ON,
  applicationServerKey,
  browserPush,
  deviceLabel,
  preferenceKeysFor,
  preferenceOn,
  pushSupport,
  subscriptionBody,
  type PushSupport,
} from './push-support';

/** How long to wait for the app's service worker before saying there is none. */
const WORKER_WAIT_MS = 4000;

function workerReady(): Promise<ServiceWorkerRegistration | null> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((done) => setTimeout(() => done(null), WORKER_WAIT_MS)),
  ]);
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  Boolean(a) && a!.byteLength === b.byteLength && new Uint8Array(a!).every((byte, i) => byte === b[i]);

/**
 * Notifications (issue 25): push on this device, on or off, and the things it may be told (admins
 * also a Cloud API number's quality alerts); the user's other devices, each removable. The service
 * worker shows what arrives and opens its address on a click.
 */
export default function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const { user } = useAuth();
  const [support, setSupport] = useState<PushSupport>(() => pushSupport(browserPush()));
  // undefined while looking, null: no service worker in this browser
  const [registration, setRegistration] = useState<ServiceWorkerRegistration | null | undefined>(undefined);
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { data: devices, mutate } = useApi<PushDevice[]>('/push/subscriptions');

  useEffect(() => {
    if (support === 'unsupported') return;
    let live = true;
    void workerReady().then(async (reg) => {
      const sub = reg ? await reg.pushManager.getSubscription() : null;
      if (!live) return;
      setRegistration(reg);
      setEndpoint(sub?.endpoint ?? null);
    });
    return () => {
      live = false;
    };
  }, [support]);

  const current = devices?.find((d) => d.endpoint === endpoint);
  const others = (devices ?? []).filter((d) => d !== current);
  const canEnable = Boolean(registration) && (support === 'default' || support === 'granted');

  const enable = async () => {
    if (!registration) return;
    setBusy(true);
    try {
      const answer = await Notification.requestPermission();
      setSupport(pushSupport({ ...browserPush(), permission: answer }));
      if (answer !== 'granted') return;
      const { publicKey } = await api.get<PushConfig>('/push/config');
      const key = applicationServerKey(publicKey);
      // a subscription made with another key (the server's keys changed) cannot be reused
      const existing = await registration.pushManager.getSubscription();
      if (existing && !sameKey(existing.options.applicationServerKey, key)) await existing.unsubscribe();
      const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      await api.post('/push/subscriptions', subscriptionBody(sub.toJSON(), deviceLabel(navigator.userAgent), ALL_ON));
      setEndpoint(sub.endpoint);
      await mutate();
      notify.success(t('enabled'));
    } catch (err) {
      if (err instanceof ApiError) toastError(err);
      else {
        console.error(err);
        notify.error(t('failed'));
      }
    } finally {
      setBusy(false);
    }
  };

  const disable = async () => {
    if (!current) return;
    setBusy(true);
    try {
      await api.delete(`/push/subscriptions/${current.id}`);
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
      setEndpoint(null);
      await mutate();
      notify.success(t('disabled'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const setPreference = async (device: PushDevice, key: keyof PushPreferences, on: boolean) => {
    try {
      const saved = await api.put<PushDevice>(`/push/subscriptions/${device.id}`, { preferences: { [key]: on } });
      await mutate((list) => list?.map((d) => (d.id === saved.id ? saved : d)), { revalidate: false });
      notify.success(t('saved'));
    } catch (err) {
      toastError(err);
    }
  };

  const remove = async (device: PushDevice) => {
    try {
      await api.delete(`/push/subscriptions/${device.id}`);
      await mutate((list) => list?.filter((d) => d.id !== device.id), { revalidate: false });
      notify.success(t('removed'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Box sx={{ p: 2, height: '100%', overflowY: 'auto' }}>
      <Stack spacing={2} sx={{ maxWidth: 720 }}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Typography color="text.secondary">{t('intro')}</Typography>
        {support === 'unsupported' && <Alert severity="info">{t('unsupported')}</Alert>}
        {support === 'denied' && <Alert severity="warning">{t('denied')}</Alert>}
        {support !== 'unsupported' && registration === null && <Alert severity="info">{t('noWorker')}</Alert>}

        <Paper variant="outlined" component="section" aria-labelledby="push-this-device" sx={{ p: 2 }}>
          <Typography variant="h6" component="h2" id="push-this-device">
            {t('thisDevice')}
          </Typography>
          {current ? (
            <Stack spacing={1} sx={{ mt: 1 }}>
              <Typography>{t('on', { device: current.device })}</Typography>
              <FormGroup aria-label={t('whatToSend')}>
                {preferenceKeysFor(user?.profile).map((key) => (
                  <FormControlLabel
                    key={key}
                    label={t(`preferences.${key}`)}
                    control={
                      <Switch
                        checked={preferenceOn(current.preferences, key)}
                        onChange={(e) => void setPreference(current, key, e.target.checked)}
                      />
                    }
                  />
                ))}
              </FormGroup>
              <Box>
                <Button variant="outlined" disabled={busy} onClick={() => void disable()}>
                  {t('disable')}
                </Button>
              </Box>
            </Stack>
          ) : (
            <Stack spacing={1} sx={{ mt: 1, alignItems: 'flex-start' }}>
              <Typography>{t('off')}</Typography>
              <Button variant="contained" disabled={!canEnable || busy} onClick={() => void enable()}>
                {t('enable')}
              </Button>
            </Stack>
          )}
        </Paper>

        <Paper variant="outlined" component="section" aria-labelledby="push-other-devices" sx={{ p: 2 }}>
          <Typography variant="h6" component="h2" id="push-other-devices">
            {t('otherDevices')}
          </Typography>
          {others.length === 0 ? (
            <Typography color="text.secondary">{t('noOtherDevices')}</Typography>
          ) : (
            <List dense>
              {others.map((device) => (
                <ListItem
                  key={device.id}
                  secondaryAction={
                    <IconButton
                      edge="end"
                      aria-label={t('remove', { device: device.device })}
                      onClick={() => void remove(device)}
                    >
                      <DeleteIcon />
                    </IconButton>
                  }
                >
                  <ListItemText
                    primary={device.device}
                    secondary={t('since', { date: formatDate(device.createdAt) })}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Paper>
      </Stack>
    </Box>
  );
}
