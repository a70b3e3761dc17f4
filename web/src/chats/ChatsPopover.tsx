import { useState } from 'react';
import { Badge, IconButton, List, ListItemButton, ListItemText, Popover, Typography } from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { formatListStamp } from '../lib/format';
import { unreadsOf, useChats } from './useChats';

/** The top-bar internal chats popover (2.10): a chat opens /chats/{uuid} with a full page load. */
export function ChatsPopover() {
  const { t } = useTranslation('chats');
  const { user, plan } = useAuth();
  const enabled = Boolean(plan?.useInternalChat);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { chats } = useChats(enabled);
  if (!enabled) return null;
  const unread = chats.reduce((n, c) => n + unreadsOf(c, user?.id), 0);

  return (
    <>
      <Tooltip title={t('popover.open')}>
        <IconButton color="inherit" aria-label={t('popover.open')} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={unread} color="error">
            <ForumIcon />
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
        <List sx={{ width: 320, maxHeight: 400, overflowY: 'auto' }} aria-label={t('popover.open')}>
          {chats.length === 0 && (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t('popover.empty')}
            </Typography>
          )}
          {chats.map((chat) => {
            const unreads = unreadsOf(chat, user?.id);
            return (
              <ListItemButton key={chat.id} component="a" href={`/chats/${chat.uuid}`}>
                <ListItemText
                  primary={chat.title}
                  secondary={`${formatListStamp(chat.updatedAt)} · ${chat.lastMessage}`}
                  slotProps={{ primary: { sx: { fontWeight: unreads ? 700 : 400 } }, secondary: { noWrap: true } }}
                />
                {unreads > 0 && <Badge badgeContent={unreads} color="error" sx={{ mx: 1.5 }} />}
              </ListItemButton>
            );
          })}
        </List>
      </Popover>
    </>
  );
}
