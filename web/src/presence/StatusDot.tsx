import { Badge } from '@mui/material';
import type { UserStatus } from '#shared/schemas/presence';

const COLOR: Record<UserStatus, 'success' | 'warning' | 'default'> = {
  online: 'success',
  away: 'warning',
  offline: 'default',
};

/** A status as a coloured dot: online green, away amber, offline grey. */
export const StatusDot = ({ status }: { status: UserStatus }) => (
  <Badge variant="dot" color={COLOR[status]} sx={{ '& .MuiBadge-dot': { position: 'static', transform: 'none' } }}>
    <span />
  </Badge>
);
