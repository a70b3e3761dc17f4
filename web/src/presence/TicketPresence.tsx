import { Avatar, AvatarGroup, Box, Button, Paper, Stack, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { useTranslation } from 'react-i18next';
import type { TicketViewer } from '#shared/presence';
import { Tooltip } from '../components/Tooltip';

/*
 * Loaded by TicketView only when they show, or just after the ticket shows (issue 25: the ticket
 * page's first download): the avatars when someone else has the ticket open, the notice when
 * another attendant holds it.
 */

/** The other users who have the ticket open, as avatars in its header (issue 24). */
export function ViewerAvatars({ viewers }: { viewers: TicketViewer[] }) {
  const { t } = useTranslation('tickets');
  if (!viewers.length) return null;
  return (
    <AvatarGroup
      max={4}
      role="group"
      aria-label={t('presence.viewers')}
      sx={{ '& .MuiAvatar-root': { width: 28, height: 28, fontSize: 14 } }}
    >
      {viewers.map((v) => (
        <Tooltip key={v.userId} title={t('presence.viewing', { name: v.name })}>
          <Avatar alt={v.name} aria-label={t('presence.viewing', { name: v.name })}>
            {v.name.slice(0, 1).toUpperCase()}
          </Avatar>
        </Tooltip>
      ))}
    </AvatarGroup>
  );
}

/** In place of the composer when another attendant handles the ticket (the soft lock). */
export function LockNotice({
  holder,
  canTakeOver,
  busy,
  onTakeOver,
}: {
  holder: string;
  canTakeOver: boolean;
  busy: boolean;
  onTakeOver(): void;
}) {
  const { t } = useTranslation('tickets');
  return (
    <Paper square elevation={0} sx={{ borderTop: 1, borderColor: 'divider', px: 2, py: 1.5 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5 }}>
        <LockIcon color="action" />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography role="status">{t('lock.notice', { name: holder })}</Typography>
          {!canTakeOver && (
            <Typography variant="caption" color="text.secondary">
              {t('lock.askAdmin')}
            </Typography>
          )}
        </Box>
        {canTakeOver && (
          <Button variant="contained" size="small" disabled={busy} onClick={onTakeOver}>
            {t('lock.takeOver')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
