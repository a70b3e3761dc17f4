import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  Badge,
  Box,
  Button,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  Tab,
  Tabs,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { Chat } from '#shared/schemas/chats';
import { useAuth } from '../auth/AuthProvider';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { formatListStamp } from '../lib/format';
import { ChatMessages } from './ChatMessages';
import { ChatModal } from './ChatModal';
import { applyChatEvent, unreadsOf, useChats } from './useChats';

/** Internal chat (management.md "Internal chat"): two panes on wide screens, two tabs on narrow ones. */
export default function ChatsPage() {
  const { t } = useTranslation('chats');
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const { user } = useAuth();
  const navigate = useNavigate();
  const { id: uuid } = useParams();
  const { chats, mutate } = useChats(true);
  const [modal, setModal] = useState<{ chat?: Chat } | null>(null);
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  const confirmedDelete = useConfirmedDelete();
  const current = chats.find((c) => c.uuid === uuid);

  const upsert = (chat: Chat) =>
    void mutate((d) => ({ records: applyChatEvent(d?.records ?? [], { action: 'update', record: chat }) }), {
      revalidate: false,
    });
  const open = (chat: Chat) => {
    setTab('messages');
    void navigate(`/chats/${chat.uuid}`);
  };
  const remove = (chat: Chat) =>
    confirmedDelete({
      message: t('confirmDelete', { title: chat.title }),
      path: `/chats/${chat.id}`,
      deleted: t('deleted'),
      onDeleted: () => {
        void mutate((d) => ({ records: applyChatEvent(d?.records ?? [], { action: 'delete', id: chat.id }) }), {
          revalidate: false,
        });
        void navigate('/chats');
      },
    });

  const list = (
    <Stack sx={{ height: '100%', minHeight: 0 }}>
      <Box sx={{ p: 1 }}>
        <Button fullWidth variant="contained" startIcon={<AddIcon />} onClick={() => setModal({})}>
          {t('add')}
        </Button>
      </Box>
      <List aria-label={t('title')} sx={{ flex: 1, overflowY: 'auto' }}>
        {chats.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('empty')}
          </Typography>
        )}
        {chats.map((chat) => {
          const unreads = unreadsOf(chat, user?.id);
          const mine = chat.ownerId === user?.id;
          return (
            <ListItemButton key={chat.id} selected={chat.uuid === uuid} onClick={() => open(chat)}>
              <ListItemText
                primary={chat.title}
                secondary={`${formatListStamp(chat.updatedAt)} · ${chat.lastMessage}`}
                slotProps={{ secondary: { noWrap: true } }}
              />
              {unreads > 0 && (
                <Badge
                  badgeContent={unreads}
                  color="error"
                  aria-label={t('unreads', { count: unreads })}
                  sx={{ mx: 2 }}
                />
              )}
              {mine && (
                <>
                  <IconButton
                    size="small"
                    aria-label={t('edit', { title: chat.title })}
                    onClick={(e) => {
                      e.stopPropagation();
                      setModal({ chat });
                    }}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('delete', { title: chat.title })}
                    onClick={(e) => {
                      e.stopPropagation();
                      void remove(chat);
                    }}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </>
              )}
            </ListItemButton>
          );
        })}
      </List>
    </Stack>
  );

  const messages = current ? (
    <ChatMessages key={current.id} chat={current} />
  ) : (
    <Typography color="text.secondary" sx={{ p: 3 }}>
      {t('pick')}
    </Typography>
  );

  return (
    <Box sx={{ p: 2, height: '100%', minHeight: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="h5" component="h1">
        {t('title')}
      </Typography>
      {wide ? (
        <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
          <Box sx={{ width: 320, borderRight: 1, borderColor: 'divider', minHeight: 0 }}>{list}</Box>
          <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>{messages}</Box>
        </Paper>
      ) : (
        <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
          <Tabs value={tab} onChange={(_, v) => setTab(v)} variant="fullWidth">
            <Tab value="chats" label={t('tabs.chats')} />
            <Tab value="messages" label={t('tabs.messages')} />
          </Tabs>
          <Box sx={{ flex: 1, minHeight: 0 }}>{tab === 'chats' ? list : messages}</Box>
        </Paper>
      )}
      <ChatModal
        open={modal !== null}
        chat={modal?.chat}
        onClose={() => setModal(null)}
        onSaved={(chat) => {
          upsert(chat);
          if (!modal?.chat) open(chat);
        }}
      />
    </Box>
  );
}
