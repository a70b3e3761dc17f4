import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Box, Chip, CircularProgress, Divider, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { NEXT_PAGE_TOP_PX } from '#shared/constants';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';
import { formatDate, formatDateTime } from '../lib/format';
import type { Message } from '../tickets/types';
import { buildTimeline } from './timeline';
import { MessageBubble } from './MessageBubble';
import { useMessages } from './useMessages';

/** How far back a focused message is looked for (pages of the conversation, newest first). */
const MAX_FOCUS_MESSAGES = 2000;

interface Props {
  ticketId: number;
  /** the ticket's `<contactId>-<whatsappId>` (conversationHint) */
  conversation?: string;
  onReply?(m: Message): void;
  readOnly?: boolean;
}

/**
 * The message list of 2.5: older pages load within 50 px of the top (keeping the reading
 * position); new messages scroll to the newest; day separators and ticket-change banners.
 */
export function MessagesList({ ticketId, conversation, onReply, readOnly }: Props) {
  const { t } = useTranslation('tickets');
  const confirm = useConfirm();
  const { messages, hasMore, loadOlder, isLoading, isValidating } = useMessages(ticketId, {
    live: !readOnly,
    conversation,
  });
  // `?message=<id>` (a search hit): older pages load until it is there, then it is scrolled to and marked
  const [params] = useSearchParams();
  const focusId = readOnly ? null : params.get('message');
  const focused = useRef<string | null>(null);
  const rows = useMemo(() => buildTimeline(messages), [messages]);
  const box = useRef<HTMLDivElement>(null);
  const lastId = messages.at(-1)?.id;
  const firstId = messages[0]?.id;
  const anchor = useRef<{ firstId: unknown; height: number } | null>(null);

  const content = useRef<HTMLDivElement>(null);
  // Stuck to the newest message unless the user scrolled up to read.
  const stick = useRef(true);

  // Newest message (first load or a live one): scroll to the bottom.
  // biome-ignore lint/correctness/useExhaustiveDependencies: lastId is the trigger: a new newest message re-sticks the list to the bottom
  useEffect(() => {
    const el = box.current;
    stick.current = true;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  // Media load late and grow the list: stay at the bottom while stuck there.
  useEffect(() => {
    const el = box.current;
    if (!el || !content.current || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(content.current);
    return () => observer.disconnect();
  }, []);

  // Older page prepended: keep the message the user was reading in place.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !anchor.current || anchor.current.firstId === firstId) return;
    el.scrollTop += el.scrollHeight - anchor.current.height;
    anchor.current = null;
  }, [firstId]);

  useEffect(() => {
    if (!focusId || focused.current === focusId || isLoading) return;
    const el = box.current?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(focusId)}"]`);
    if (el) {
      focused.current = focusId;
      stick.current = false;
      el.scrollIntoView({ block: 'center' });
    } else if (hasMore && !isValidating && messages.length < MAX_FOCUS_MESSAGES) loadOlder();
  }, [focusId, messages, hasMore, isLoading, isValidating, loadOlder]);

  const onScroll = useCallback(() => {
    const el = box.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (!hasMore || isValidating) return;
    if (el.scrollTop <= NEXT_PAGE_TOP_PX) {
      anchor.current = { firstId, height: el.scrollHeight };
      loadOlder();
    }
  }, [hasMore, isValidating, loadOlder, firstId]);

  const onDelete = useCallback(
    async (m: Message) => {
      if (!(await confirm({ message: t('messages.deleteConfirm'), confirmLabel: t('messages.delete') }))) return;
      try {
        await api.delete(`/messages/${m.id}`);
      } catch (err) {
        toastError(err);
      }
    },
    [confirm, t],
  );

  // the message comes back changed through the appMessage event
  const onReact = useCallback(async (m: Message, emoji: string) => {
    try {
      await api.post(`/messages/${m.id}/reactions`, { emoji });
    } catch (err) {
      toastError(err);
    }
  }, []);

  // the new message arrives through the appMessage event like any other send
  const onResend = useCallback(async (m: Message) => {
    try {
      await api.post(`/messages/${m.id}/resend`);
    } catch (err) {
      toastError(err);
    }
  }, []);

  return (
    <Box
      ref={box}
      onScroll={onScroll}
      role="log"
      aria-live="polite"
      aria-label={t('tabs.attendance')}
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        py: 1,
        bgcolor: (th) => (th.palette.mode === 'dark' ? '#0b141a' : '#efeae2'),
      }}
    >
      <div ref={content}>
        {(isLoading || (hasMore && isValidating)) && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
            <CircularProgress size={20} aria-label={t('messages.loadMore')} />
          </Box>
        )}
        {!isLoading && rows.length === 0 && (
          <Typography color="text.secondary" sx={{ textAlign: 'center', p: 3 }}>
            {t('messages.empty')}
          </Typography>
        )}
        {rows.map((row) => {
          if (row.kind === 'day')
            return (
              <Box key={row.key} sx={{ display: 'flex', justifyContent: 'center', my: 1 }}>
                <Chip size="small" label={formatDate(row.date)} />
              </Box>
            );
          if (row.kind === 'ticketChange')
            return (
              <Box key={row.key} role="separator" sx={{ my: 2, px: 2 }}>
                <Divider>
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {t('messages.conversationEnded', { date: formatDateTime(row.closedAt) })}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {t('messages.conversationStarted', { date: formatDateTime(row.startedAt) })}
                  </Typography>
                </Divider>
              </Box>
            );
          const isFocus = focusId !== null && String(row.message.id) === focusId;
          return (
            <Box
              key={row.key}
              data-message-id={String(row.message.id)}
              aria-current={isFocus ? 'true' : undefined}
              sx={isFocus ? { bgcolor: 'rgba(255, 193, 7, 0.35)', transition: 'background-color 2s' } : undefined}
            >
              <MessageBubble
                message={row.message}
                onReply={onReply}
                onDelete={onDelete}
                onResend={onResend}
                onReact={onReact}
                readOnly={readOnly}
              />
            </Box>
          );
        })}
      </div>
    </Box>
  );
}
