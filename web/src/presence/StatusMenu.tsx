import { useState } from 'react';
import { Badge, Box, Button, List, ListItem, ListItemText, ListSubheader, Popover, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '#shared/schemas/presence';
import { useAuth } from '../auth/AuthProvider';
import { useIdleTracker, usePresenceList } from './usePresence';

const COLOR: Record<UserStatus, 'success' | 'warning' | 'default'> = {
  online: 'success',
  away: 'warning',
  offline: 'default',
};

const Dot = ({ status }: { status: UserStatus }) => (
  <Badge variant="dot" color={COLOR[status]} sx={{ '& .MuiBadge-dot': { position: 'static', transform: 'none' } }}>
    <span />
  </Badge>
);

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
  const team = [...entries].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Button
        color="inherit"
        size="small"
        aria-label={label}
        aria-haspopup={admin ? 'dialog' : undefined}
        onClick={admin ? (e) => setAnchor(e.currentTarget) : undefined}
        startIcon={<Dot status={own} />}
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
          <List
            dense
            aria-label={t('presence.team')}
            sx={{ minWidth: 240, maxHeight: 420, overflow: 'auto' }}
            subheader={<ListSubheader>{t('presence.team')}</ListSubheader>}
          >
            {team.map((e) => (
              <ListItem key={e.userId} secondaryAction={<Dot status={e.status} />}>
                <ListItemText
                  primary={e.name}
                  secondary={
                    <Typography component="span" variant="caption">
                      {t(`presence.${e.status}`)}
                    </Typography>
                  }
                />
              </ListItem>
            ))}
          </List>
        </Popover>
      )}
    </>
  );
}
