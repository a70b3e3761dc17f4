import { List, ListItem, ListItemText, ListSubheader, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PresenceEntry } from '#shared/presence';
import { StatusDot } from './StatusDot';

/**
 * The team's statuses in the admin's status popover; its code is fetched when the popover first
 * opens (issue 25: the signed-in pages' first download).
 */
export default function TeamStatusList({ entries }: { entries: PresenceEntry[] }) {
  const { t } = useTranslation();
  const team = [...entries].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <List
      dense
      aria-label={t('presence.team')}
      sx={{ minWidth: 240, maxHeight: 420, overflow: 'auto' }}
      subheader={<ListSubheader>{t('presence.team')}</ListSubheader>}
    >
      {team.map((e) => (
        <ListItem key={e.userId} secondaryAction={<StatusDot status={e.status} />}>
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
  );
}
