import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, CircularProgress, IconButton, Paper, Stack, TextField, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useTranslation } from 'react-i18next';
import { CHAT_LOAD_OLDER_PX, type Chat, type ChatMessage } from '#shared/schemas/chats';
import { api } from '../api/client';
import { useAuth } from '../auth/AuthProvider';
import { useRealtimeEvent, useOnReconnect } from '../realtime/RealtimeProvider';
import { formatListStamp } from '../lib/format';
import type { ChatEvent } from './useChats';

interface Page {
  records: ChatMessage[];
  hasMore: boolean;
  cursor?: string;
}

/** Adds messages not yet shown, in time order. */
export const mergeMessages = (current: ChatMessage[], more: ChatMessage[]) => {
  const seen = new Set(current.map((m) => m.id));
  return [...current, ...more.filter((m) => !seen.has(m.id))].sort((a, b) => a.id.localeCompare(b.id));
};

/** Blank text is never sent; Enter sends and Shift+Enter breaks the line (management.md 5). */
export const shouldSend = (e: Pick<KeyboardEvent, 'key' | 'shiftKey'>, text: string) =>
  e.key === 'Enter' && !e.shiftKey && text.trim().length > 0;

/** One chat's messages: older pages load near the top; new ones arrive live and are marked read. */
export function ChatMessages({ chat }: { chat: Chat }) {
  const { t } = useTranslation('chats');
  const { user } = useAuth();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [older, setOlder] = useState<{ hasMore: boolean; cursor?: string }>({ hasMore: false });
  const [loading, setLoading] = useState(false);
  const [text, setText] = useState('');
  const box = useRef<HTMLDivElement>(null);
  // how far from the bottom the view was before older messages were put above it
  const keepFromBottom = useRef<number | null>(null);
  const stickToBottom = useRef(true);

  const markRead = useCallback(() => {
    api.post(`/chats/${chat.id}/read`, { userId: user?.id }).catch(console.error);
  }, [chat.id, user?.id]);

  const loadFirst = useCallback(() => {
    setLoading(true);
    api
      .get<Page>(`/chats/${chat.id}/messages`)
      .then((page) => {
        stickToBottom.current = true;
        setMessages(page.records);
        setOlder({ hasMore: page.hasMore, cursor: page.cursor });
      }, console.error)
      .finally(() => setLoading(false));
    markRead();
  }, [chat.id, markRead]);

  useEffect(() => {
    setMessages([]);
    loadFirst();
  }, [loadFirst]);
  useOnReconnect(loadFirst);

  const loadOlder = () => {
    if (!older.hasMore || loading || !older.cursor) return;
    setLoading(true);
    api
      .get<Page>(`/chats/${chat.id}/messages`, { cursor: older.cursor })
      .then((page) => {
        const el = box.current;
        keepFromBottom.current = el ? el.scrollHeight - el.scrollTop : null;
        setMessages((m) => mergeMessages(m, page.records));
        setOlder({ hasMore: page.hasMore, cursor: page.cursor });
      }, console.error)
      .finally(() => setLoading(false));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: each change of the messages places the scroll (kept above older ones, or at the bottom)
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  useRealtimeEvent<ChatEvent>('chat', (ev) => {
    if (ev.action !== 'new-message' || ev.newMessage.chatId !== chat.id) return;
    const el = box.current;
    stickToBottom.current = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    setMessages((m) => mergeMessages(m, [ev.newMessage]));
    if (ev.newMessage.senderId !== user?.id && document.visibilityState === 'visible') markRead();
  });

  const send = async () => {
    const message = text;
    if (!message.trim()) return;
    setText('');
    try {
      const saved = await api.post<ChatMessage>(`/chats/${chat.id}/messages`, { message });
      stickToBottom.current = true;
      setMessages((m) => mergeMessages(m, [saved]));
    } catch (err) {
      // chat failures are only logged (management.md 8); the text comes back to the box
      console.error(err);
      setText(message);
    }
  };

  return (
    <Stack sx={{ height: '100%', minHeight: 0 }}>
      <Box
        ref={box}
        role="log"
        aria-label={chat.title}
        onScroll={(e) => e.currentTarget.scrollTop < CHAT_LOAD_OLDER_PX && loadOlder()}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}
      >
        {loading && older.hasMore && (
          <Stack direction="row" spacing={1} sx={{ alignSelf: 'center', alignItems: 'center' }}>
            <CircularProgress size={16} />
            <Typography variant="caption">{t('loadingOlder')}</Typography>
          </Stack>
        )}
        {!loading && messages.length === 0 && (
          <Typography color="text.secondary" sx={{ alignSelf: 'center' }}>
            {t('noMessages')}
          </Typography>
        )}
        {messages.map((m) => {
          const mine = m.senderId === user?.id;
          return (
            <Paper
              key={m.id}
              variant="outlined"
              data-testid="chat-message"
              sx={{
                p: 1,
                maxWidth: '75%',
                alignSelf: mine ? 'flex-end' : 'flex-start',
                bgcolor: mine ? 'primary.main' : 'background.paper',
                color: mine ? 'primary.contrastText' : 'text.primary',
              }}
            >
              {!mine && (
                <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>
                  {m.sender.name}
                </Typography>
              )}
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.message}
              </Typography>
              <Typography variant="caption" sx={{ opacity: 0.7, display: 'block', textAlign: 'right' }}>
                {formatListStamp(m.createdAt)}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      <Stack direction="row" spacing={1} sx={{ p: 1, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}>
        <TextField
          fullWidth
          multiline
          maxRows={4}
          size="small"
          label={t('message')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) e.preventDefault();
            if (shouldSend(e, text)) void send();
          }}
        />
        <IconButton color="primary" aria-label={t('send')} onClick={() => void send()} disabled={!text.trim()}>
          <SendIcon />
        </IconButton>
      </Stack>
    </Stack>
  );
}
