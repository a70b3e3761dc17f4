import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Stack, Tab, Tabs, Typography, useMediaQuery, useTheme } from '@mui/material';
import ForumIcon from '@mui/icons-material/Forum';
import { useTranslation } from 'react-i18next';
import { TicketsManager } from './TicketsManager';
import { TicketView } from './TicketView';

function Welcome() {
  const { t } = useTranslation('tickets');
  return (
    <Stack sx={{ flex: 1, alignItems: 'center', justifyContent: 'center', gap: 2, color: 'text.secondary' }}>
      <ForumIcon sx={{ fontSize: 96, opacity: 0.3 }} />
      <Typography>{t('manager.welcome')}</Typography>
    </Stack>
  );
}

/** /tickets and /tickets/:ticketId (2.4): two panes on wide screens, two tabs on narrow ones. */
export default function TicketsPage() {
  const { t } = useTranslation('tickets');
  const { ticketId } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const [narrowTab, setNarrowTab] = useState<'ticket' | 'attendance'>(ticketId ? 'attendance' : 'ticket');
  const tab = ticketId ? narrowTab : 'ticket';
  // Choosing a ticket shows the attendance tab.
  useEffect(() => {
    if (ticketId) setNarrowTab('attendance');
  }, [ticketId]);

  if (!narrow) {
    return (
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <Box sx={{ width: '33.333%', minWidth: 320, maxWidth: 480, display: 'flex' }}>
          <TicketsManager selectedUuid={ticketId} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex' }}>
          {ticketId ? <TicketView key={ticketId} uuid={ticketId} /> : <Welcome />}
        </Box>
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <Tabs value={tab} onChange={(_, v) => setNarrowTab(v)} variant="fullWidth" aria-label={t('tabs.ticket')}>
        <Tab value="ticket" label={t('tabs.ticket')} />
        <Tab value="attendance" label={t('tabs.attendance')} />
      </Tabs>
      <Box sx={{ flex: 1, minHeight: 0, display: tab === 'ticket' ? 'flex' : 'none' }}>
        <Box sx={{ flex: 1, display: 'flex', minWidth: 0 }}>
          <TicketsManager selectedUuid={ticketId} />
        </Box>
      </Box>
      {tab === 'attendance' &&
        (ticketId ? (
          <TicketView
            key={ticketId}
            uuid={ticketId}
            onBack={() => {
              setNarrowTab('ticket');
              // opened from the list: going back is the browser's Back, so history holds no extra list entry
              if ((location.state as { fromList?: boolean } | null)?.fromList) void navigate(-1);
              else void navigate('/tickets');
            }}
          />
        ) : (
          <Stack sx={{ flex: 1, alignItems: 'center', justifyContent: 'center' }}>
            <Button variant="contained" onClick={() => setNarrowTab('ticket')}>
              {t('manager.selectTicket')}
            </Button>
          </Stack>
        ))}
    </Box>
  );
}
