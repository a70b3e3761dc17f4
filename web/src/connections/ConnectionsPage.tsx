import { lazy, useState, type ReactElement } from 'react';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CropFreeIcon from '@mui/icons-material/CropFree';
import SignalOffIcon from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalIcon from '@mui/icons-material/SignalCellular4Bar';
import TemplateIcon from '@mui/icons-material/QuickreplyOutlined';
import UsageIcon from '@mui/icons-material/ReceiptLongOutlined';
import CloudIcon from '@mui/icons-material/CloudOutlined';
import { useTranslation } from 'react-i18next';
import { isCloudProvider } from '#shared/constants';
import { hasCloudTransport } from '#shared/transports';
import { can } from '#shared/permissions';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { useConfirm } from '../components/ConfirmProvider';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { PageFrame } from '../components/PageFrame';
import { usePhone } from '../components/usePhone';
import { formatShortDateTime } from '../lib/format';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList, liveMutation, removeById, upsertById } from '../realtime/cache';
import { CloudHealthCell } from './CloudHealthCell';
import { ConnectionModal } from './ConnectionModal';
import { HealthCell } from './HealthCell';
import { QrCodeModal } from './QrCodeModal';
import { SESSION_CALLS, sessionButtons, type SessionButton } from './session-buttons';

type Row = Pick<
  Whatsapp,
  | 'id'
  | 'name'
  | 'status'
  | 'isDefault'
  | 'updatedAt'
  | 'health'
  | 'provider'
  | 'statusReason'
  | 'templatesSyncedAt'
  | 'cloudQuality'
  | 'cloudMessagingLimit'
  | 'reachoutLockedUntil'
  | 'reachoutType'
  | 'newChatQuota'
  | 'cloudQualityEvent'
  | 'cloudQualityEventAt'
  | 'number'
  | 'cloudTransport'
  | 'preferredTransport'
  | 'phoneNumberId'
>;

// a Cloud API connection's message templates and priced messages: loaded when first opened
const TemplatesDialog = lazy(() => import('../templates/TemplatesDialog'));
const UsageDialog = lazy(() => import('./UsageDialog'));
const CloudTransportDialog = lazy(() => import('./CloudTransportDialog'));

const STATUS_ICON: Record<string, ReactElement> = {
  CONNECTED: <CheckCircleIcon color="success" />,
  DISCONNECTED: <SignalOffIcon color="error" />,
  qrcode: <CropFreeIcon color="warning" />,
  OPENING: <CircularProgress size={20} />,
  PAIRING: <SignalIcon color="info" />,
  TIMEOUT: <SignalOffIcon color="warning" />,
};

/** Connections (management.md "Connections page"): list, session buttons by status, live status. */
export default function ConnectionsPage() {
  const { t } = useTranslation(['connections', 'common']);
  const { user } = useAuth();
  const confirm = useConfirm();
  const confirmedDelete = useConfirmedDelete();
  // The same key as the menu's warning badge: one cached list for both, kept live by events.
  const { data, mutate, isLoading } = useApi<unknown>('/whatsapp', { session: 0 });
  const list = asList<Row>(data, 'whatsapps');
  const [modal, setModal] = useState<{ id?: number } | null>(null);
  const [qr, setQr] = useState<{ id: number; name: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [templatesOf, setTemplatesOf] = useState<number | null>(null);
  const [usageOf, setUsageOf] = useState<number | null>(null);
  const [transportOf, setTransportOf] = useState<number | null>(null);
  // on a phone the row's dialog buttons shrink to their icons: the table already scrolls sideways
  const phone = usePhone();
  const mayAdd = can(user?.profile, 'connections-page:addConnection');
  const mayAct = can(user?.profile, 'connections-page:actionButtons');
  const mayEdit = can(user?.profile, 'connections-page:editOrDeleteConnection');

  useRealtimeEvent<{ action: string; whatsapp?: Row; whatsappId?: number }>('whatsapp', (ev) => {
    if (ev.action === 'delete' && ev.whatsappId !== undefined)
      void mutate((d: unknown) => removeById(asList<Row>(d, 'whatsapps'), ev.whatsappId!), liveMutation(data));
    else if (ev.whatsapp)
      void mutate((d: unknown) => upsertById(asList<Row>(d, 'whatsapps'), ev.whatsapp!, 'end'), liveMutation(data));
  });
  useRealtimeEvent<{ action: string; session?: Partial<Row> & { id: number } }>('whatsappSession', (ev) => {
    if (!ev.session) return;
    const { id, status, updatedAt, health } = ev.session;
    void mutate(
      (d: unknown) =>
        asList<Row>(d, 'whatsapps').map((c) =>
          c.id === id
            ? { ...c, ...(status && { status }), ...(updatedAt && { updatedAt }), ...(health && { health }) }
            : c,
        ),
      liveMutation(data),
    );
  });

  const session = async (w: Row, button: Exclude<SessionButton, 'qrcode' | 'connecting'>) => {
    if (button === 'disconnect' && !(await confirm({ message: t('confirmDisconnect', { name: w.name }) }))) return;
    setBusy(w.id);
    try {
      await api.request(SESSION_CALLS[button], `/whatsappsession/${w.id}`);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const remove = (w: Row) =>
    confirmedDelete({
      message: t('confirmDelete', { name: w.name }),
      path: `/whatsapp/${w.id}`,
      onDeleted: () =>
        void mutate((d: unknown) => removeById(asList<Row>(d, 'whatsapps'), w.id), { revalidate: false }),
      deleted: t('deleted'),
    });

  const renderButton = (w: Row, b: SessionButton) => {
    if (b === 'qrcode')
      return (
        <Button key={b} size="small" variant="contained" onClick={() => setQr({ id: w.id, name: w.name })}>
          {t('buttons.qrcode')}
        </Button>
      );
    if (b === 'connecting')
      return (
        <Button key={b} size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} />}>
          {t('buttons.connecting')}
        </Button>
      );
    return (
      <Button
        key={b}
        size="small"
        variant={b === 'disconnect' ? 'outlined' : 'contained'}
        color={b === 'disconnect' ? 'error' : 'primary'}
        disabled={busy === w.id}
        onClick={() => void session(w, b)}
      >
        {t(`buttons.${b}`)}
      </Button>
    );
  };

  const rowButton = (label: string, name: string, icon: ReactElement, onClick: () => void) =>
    phone ? (
      <Tooltip key={label} title={name}>
        <IconButton size="small" aria-label={name} onClick={onClick}>
          {icon}
        </IconButton>
      </Tooltip>
    ) : (
      <Button key={label} size="small" startIcon={icon} aria-label={name} onClick={onClick}>
        {label}
      </Button>
    );

  return (
    <PageFrame
      title={t('title')}
      actions={
        mayAdd && (
          <Button variant="contained" onClick={() => setModal({})}>
            {t('add')}
          </Button>
        )
      }
    >
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.status')}</TableCell>
            {mayAct && <TableCell align="center">{t('columns.session')}</TableCell>}
            {mayAct && <TableCell>{t('health.column')}</TableCell>}
            <TableCell align="center">{t('columns.lastUpdate')}</TableCell>
            <TableCell align="center">{t('columns.default')}</TableCell>
            {mayEdit && <TableCell align="center">{t('columns.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((w) => (
            <TableRow key={w.id} hover data-status={w.status}>
              <TableCell>
                <Stack direction="row" sx={{ alignItems: 'center', columnGap: 1, flexWrap: 'wrap' }}>
                  {w.name}
                  {w.cloudTransport && (
                    <Chip
                      size="small"
                      variant="outlined"
                      icon={<CloudIcon />}
                      color={w.cloudTransport.status === 'CONNECTED' ? 'success' : 'warning'}
                      label={t('transport.chip')}
                    />
                  )}
                  {!isCloudProvider(w.provider) &&
                    mayEdit &&
                    rowButton(t('transport.button'), t('transport.buttonOf', { name: w.name }), <CloudIcon />, () =>
                      setTransportOf(w.id),
                    )}
                  {hasCloudTransport(w) &&
                    rowButton(
                      t('buttons.templates'),
                      t('buttons.templatesOf', { name: w.name }),
                      <TemplateIcon />,
                      () => setTemplatesOf(w.id),
                    )}
                  {hasCloudTransport(w) &&
                    mayAct &&
                    rowButton(t('usage.button'), t('usage.buttonOf', { name: w.name }), <UsageIcon />, () =>
                      setUsageOf(w.id),
                    )}
                </Stack>
              </TableCell>
              <TableCell align="center">
                <Tooltip
                  title={
                    w.statusReason
                      ? t(`cloudReason.${w.statusReason}`)
                      : t(`status.${w.status}`, { defaultValue: w.status })
                  }
                >
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center' }}>
                    {STATUS_ICON[w.status]}
                    <Typography variant="body2">{t(`status.${w.status}`, { defaultValue: w.status })}</Typography>
                  </Stack>
                </Tooltip>
              </TableCell>
              {mayAct && (
                <TableCell align="center">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
                    {sessionButtons(w.status, w.provider).map((b) => renderButton(w, b))}
                  </Stack>
                </TableCell>
              )}
              {mayAct && (
                <TableCell>
                  {isCloudProvider(w.provider) ? (
                    <CloudHealthCell name={w.name} health={w} />
                  ) : (
                    <HealthCell name={w.name} health={w.health} restriction={w} />
                  )}
                </TableCell>
              )}
              <TableCell align="center">{formatShortDateTime(w.updatedAt)}</TableCell>
              <TableCell align="center">
                {w.isDefault && <Chip size="small" color="success" icon={<CheckCircleIcon />} label={t('isDefault')} />}
              </TableCell>
              {mayEdit && (
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('buttons.edit', { name: w.name })}
                    onClick={() => setModal({ id: w.id })}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('buttons.delete', { name: w.name })}
                    onClick={() => void remove(w)}
                  >
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!isLoading && list.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <ConnectionModal
        open={modal !== null}
        whatsappId={modal?.id}
        onClose={() => {
          setModal(null);
          void mutate();
        }}
      />
      <QrCodeModal whatsapp={qr} onClose={() => setQr(null)} />
      <MountWhenOpened open={templatesOf !== null}>
        <TemplatesDialog
          whatsapp={list.find((w) => w.id === templatesOf)}
          maySync={mayEdit}
          onClose={() => setTemplatesOf(null)}
          onSynced={() => void mutate()}
        />
      </MountWhenOpened>
      <MountWhenOpened open={transportOf !== null}>
        <CloudTransportDialog
          key={transportOf ?? 0}
          whatsapp={list.find((w) => w.id === transportOf)}
          onClose={() => setTransportOf(null)}
          onChanged={() => void mutate()}
        />
      </MountWhenOpened>
      <MountWhenOpened open={usageOf !== null}>
        <UsageDialog whatsapp={list.find((w) => w.id === usageOf)} onClose={() => setUsageOf(null)} />
      </MountWhenOpened>
    </PageFrame>
  );
}
