import { lazy, useState } from 'react';
import { Button, IconButton, Stack, Typography } from '@mui/material';
import TemplateIcon from '@mui/icons-material/QuickreplyOutlined';
import { useTranslation } from 'react-i18next';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { Tooltip } from '../components/Tooltip';
import type { Ticket } from '../tickets/types';

const TemplatePicker = lazy(() => import('./TemplatePicker'));

interface Props {
  ticket: Pick<Ticket, 'id' | 'whatsappId' | 'status'>;
  /** the 24-hour window has closed: the notice that only templates go out, with the button */
  windowClosed: boolean;
}

/**
 * The composer's way to the template picker, for a ticket of a Cloud API number: its own chunk (a
 * ticket of a WhatsApp Web number never loads it), the picker another, loaded on the first click. An
 * icon beside the attach button while the window is open; once it has closed, a notice above the
 * composer with the button in words.
 */
export default function TemplateButton({ ticket, windowClosed }: Props) {
  const { t } = useTranslation('templates');
  const [open, setOpen] = useState(false);
  const disabled = ticket.status !== 'open';
  const picker = (
    <MountWhenOpened open={open}>
      <TemplatePicker ticket={ticket} open={open} onClose={() => setOpen(false)} />
    </MountWhenOpened>
  );
  if (!windowClosed)
    return (
      <>
        <Tooltip title={t('open')}>
          <span>
            <IconButton aria-label={t('open')} disabled={disabled} onClick={() => setOpen(true)}>
              <TemplateIcon />
            </IconButton>
          </span>
        </Tooltip>
        {picker}
      </>
    );
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      sx={{
        alignItems: { xs: 'stretch', sm: 'center' },
        gap: 1,
        mb: 0.75,
        px: 1.5,
        py: 1,
        borderRadius: 1,
        borderLeft: 4,
        borderColor: 'warning.main',
        bgcolor: 'action.hover',
      }}
    >
      <Typography variant="body2" sx={{ flex: 1 }}>
        {t('windowClosed')}
      </Typography>
      <Button
        variant="contained"
        size="small"
        startIcon={<TemplateIcon />}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {t('open')}
      </Button>
      {picker}
    </Stack>
  );
}
