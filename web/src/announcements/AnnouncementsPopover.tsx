import { lazy, useState } from 'react';
import { Badge, Box, IconButton, List, ListItemButton, ListItemText, Popover, Typography } from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { useTranslation } from 'react-i18next';
import type { Announcement } from '#shared/schemas/announcements';
import { api } from '../api/client';
import { formatListStamp } from '../lib/format';
import { MountWhenOpened } from '../components/MountWhenOpened';
import { useActiveAnnouncements } from './useAnnouncements';

const AnnouncementViewer = lazy(() => import('./AnnouncementViewer').then((m) => ({ default: m.AnnouncementViewer })));

/** Priority colours (attendance.md 3): 1 red, 2 orange, 3 grey. */
export const PRIORITY_COLOR: Record<number, string> = { 1: 'error.main', 2: 'warning.main', 3: 'grey.500' };

/** The top-bar announcements popover (2.10): active ones by priority and date, unread marked. */
export function AnnouncementsPopover() {
  const { t } = useTranslation('announcements');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [viewing, setViewing] = useState<Announcement | null>(null);
  const { announcements, mutate } = useActiveAnnouncements();
  const unread = announcements.filter((a) => !a.read).length;

  const openOne = (a: Announcement) => {
    setAnchor(null);
    setViewing(a);
    if (a.read) return;
    void mutate((d) => ({ records: (d?.records ?? []).map((x) => (x.id === a.id ? { ...x, read: true } : x)) }), {
      revalidate: false,
    });
    api.post(`/announcements/${a.id}/read`).catch(console.error);
  };

  return (
    <>
      <Tooltip title={t('popover.open')}>
        <IconButton color="inherit" aria-label={t('popover.open')} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={unread} color="error">
            <CampaignIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <List sx={{ width: 340, maxHeight: 420, overflowY: 'auto' }} aria-label={t('popover.open')}>
          {announcements.length === 0 && (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t('popover.empty')}
            </Typography>
          )}
          {announcements.map((a) => (
            <ListItemButton key={a.id} onClick={() => openOne(a)} sx={{ gap: 1 }}>
              <Box
                aria-hidden
                sx={{ width: 6, alignSelf: 'stretch', borderRadius: 1, bgcolor: PRIORITY_COLOR[a.priority] }}
              />
              <ListItemText
                primary={a.title}
                secondary={`${formatListStamp(a.createdAt)} · ${a.text}`}
                slotProps={{ primary: { sx: { fontWeight: a.read ? 400 : 700 } }, secondary: { noWrap: true } }}
              />
              {!a.read && (
                <Badge color="primary" variant="dot" aria-label={t('popover.unread')} title={t('popover.unread')} />
              )}
            </ListItemButton>
          ))}
        </List>
      </Popover>
      <MountWhenOpened open={viewing !== null}>
        <AnnouncementViewer announcement={viewing} onClose={() => setViewing(null)} />
      </MountWhenOpened>
    </>
  );
}
