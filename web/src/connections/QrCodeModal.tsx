import { useEffect, useState } from 'react';
import { Box, CircularProgress, Dialog, DialogContent, DialogTitle, Typography } from '@mui/material';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { QR_SIZE } from '#shared/constants';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { qrModalShouldClose } from './session-buttons';

interface SessionEvent {
  action: string;
  session?: { id: number; qrcode?: string | null; status?: string };
}

/**
 * The QR code of a connection at size 256 (management.md section 9). New codes arrive live; the
 * modal closes itself once a session update comes with an empty qrcode (scanned, or gone).
 */
export function QrCodeModal({ whatsapp, onClose }: { whatsapp: { id: number; name: string } | null; onClose(): void }) {
  const { t } = useTranslation('connections');
  const [qrcode, setQrcode] = useState('');
  const openId = whatsapp?.id ?? null;

  useEffect(() => {
    setQrcode('');
    if (openId === null) return;
    let cancelled = false;
    api
      .get<{ qrcode?: string }>(`/whatsapp/${openId}`)
      .then((w) => !cancelled && setQrcode(w.qrcode ?? ''))
      .catch(toastError);
    return () => {
      cancelled = true;
    };
  }, [openId]);

  useRealtimeEvent<SessionEvent>('whatsappSession', (ev) => {
    if (ev.action !== 'update' || !ev.session || ev.session.id !== openId) return;
    if (qrModalShouldClose(openId, ev.session)) onClose();
    else if (ev.session.qrcode) setQrcode(ev.session.qrcode);
  });

  return (
    <Dialog open={openId !== null} onClose={onClose} maxWidth="sm" aria-labelledby="qr-title">
      <DialogTitle id="qr-title">{t('qr.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 360 }}>
          {t('qr.steps')}
        </Typography>
        <Box
          sx={{
            display: 'flex',
            justifyContent: 'center',
            alignItems: 'center',
            minHeight: QR_SIZE + 16,
            p: 1,
            bgcolor: '#fff',
            borderRadius: 1,
          }}
        >
          {qrcode ? (
            <QRCodeSVG
              value={qrcode}
              size={QR_SIZE}
              role="img"
              aria-label={t('qr.image', { name: whatsapp?.name ?? '' })}
              data-qrcode={qrcode}
            />
          ) : (
            <Box sx={{ textAlign: 'center' }}>
              <CircularProgress size={32} />
              <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
                {t('qr.waiting')}
              </Typography>
            </Box>
          )}
        </Box>
      </DialogContent>
    </Dialog>
  );
}
