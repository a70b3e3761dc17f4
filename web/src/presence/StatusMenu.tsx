import { lazy, Suspense, useEffect, useState } from 'react';
import { Box, Button, Popover } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { StatusDot } from './StatusDot';
import { useIdleTracker, usePresenceList } from './usePresence';

// the admin's team list: fetched just after the bar shows, not before (issue 25)
const loadTeam = () => import('./TeamStatusList');
const TeamStatusList = lazy(loadTeam);

/**
 * The user's own status in the top bar (issue 24), and for admins the team's statuses, live. Also
 * where this tab's idleness is tracked (the top bar is mounted on every signed-in screen).
 */
export function StatusMenu({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useIdleTracker();
  const entries = usePresenceList();
  const own = entries.find((e) => e.userId === user?.id)?.status ?? 'online';
  const label = t('presence.own', { status: t(`presence.${own}`) });
  useEffect(() => {
    if (admin) void loadTeam();
  }, [admin]);
  return (
    <>
      <Button
        color="inherit"
        size="small"
        aria-label={label}
        aria-haspopup={admin ? 'dialog' : undefined}
        onClick={admin ? (e) => setAnchor(e.currentTarget) : undefined}
        startIcon={<StatusDot status={own} />}
        sx={{ textTransform: 'none', whiteSpace: 'nowrap' }}
      >
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {t(`presence.${own}`)}
        </Box>
      </Button>
      {admin && (
        <Popover
          open={Boolean(anchor)}
          anchorEl={anchor}
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <Suspense fallback={null}>
            <TeamStatusList entries={entries} />
          </Suspense>
        </Popover>
      )}
    </>
  );
}
