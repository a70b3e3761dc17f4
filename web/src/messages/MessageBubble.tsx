import { memo, useState } from 'react';
import { Box, Button, IconButton, Menu, MenuItem, Stack, Typography } from '@mui/material';
import { Tooltip } from '../components/Tooltip';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ScheduleIcon from '@mui/icons-material/AccessTime';
import BlockIcon from '@mui/icons-material/Block';
import ReplayIcon from '@mui/icons-material/Replay';
import WarningIcon from '@mui/icons-material/WarningAmber';
import UnreadableIcon from '@mui/icons-material/HelpOutlined';
import ArticleIcon from '@mui/icons-material/ArticleOutlined';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../lib/format';
import type { Message } from '../tickets/types';
import { ackMark, bodyIsMediaData, canDeleteMessage, canResendMessage } from './timeline';
import { afterPaint, useAfterPaint } from '../components/after-paint';
import { formatted } from './formatted';

// images, audio, documents, places and cards: fetched just after the ticket shows, not before (the ticket
// page's first download made room for the keyboard shortcuts this way, issue 40 item 5)
const media = afterPaint<{ message: Message }>(() =>
  import('./MediaContent').then((m) => ({ default: m.MediaContent })),
);
function Media({ message }: { message: Message }) {
  const Loaded = useAfterPaint(media);
  return Loaded ? <Loaded message={message} /> : <Box sx={{ minWidth: 120, minHeight: 40 }} />;
}

const AckIcon = ({ ack }: { ack?: number }) => {
  const { t } = useTranslation('tickets');
  const mark = ackMark(ack);
  const label = t(`messages.ack.${ack ?? 0}`);
  const sx = { fontSize: 16, color: mark.coloured ? 'info.main' : 'text.secondary' };
  const Icon = mark.icon === 'clock' ? ScheduleIcon : mark.icon === 'done' ? DoneIcon : DoneAllIcon;
  return <Icon sx={sx} aria-label={label} titleAccess={label} />;
};

interface Props {
  message: Message;
  onReply?(m: Message): void;
  onDelete?(m: Message): void;
  onResend?(m: Message): void;
  /** an emoji in the company's name (empty: ours taken back) */
  onReact?(m: Message, emoji: string): void;
  readOnly?: boolean;
}

/** the reactions offered in the message's menu (any emoji is taken by the API) */
const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

export const MessageBubble = memo(function MessageBubble({
  message,
  onReply,
  onDelete,
  onResend,
  onReact,
  readOnly,
}: Props) {
  const { t } = useTranslation('tickets');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mine = message.fromMe;
  const quoted = message.quotedMsg;
  return (
    <Stack sx={{ alignItems: mine ? 'flex-end' : 'flex-start', px: 2, py: 0.5 }}>
      <Box
        data-testid="message"
        data-from-me={mine ? 'true' : 'false'}
        sx={{
          position: 'relative',
          maxWidth: { xs: '85%', md: 600 },
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 2.5,
          borderRadius: 2,
          boxShadow: 1,
          bgcolor: (th) => (mine ? (th.palette.mode === 'dark' ? '#005c4b' : '#dcf8c6') : 'background.paper'),
          '&:hover .msg-menu': { opacity: 1 },
        }}
      >
        {!readOnly && !message.isDeleted && (
          <IconButton
            className="msg-menu"
            size="small"
            aria-label={t('messages.options')}
            onClick={(e) => setAnchor(e.currentTarget)}
            sx={{ position: 'absolute', top: 0, right: 0, opacity: { xs: 1, md: 0 }, p: 0.25 }}
          >
            <ExpandMoreIcon fontSize="small" />
          </IconButton>
        )}
        {!mine && message.contact?.name && message.ticket && (message as { isGroup?: boolean }).isGroup && (
          <Typography variant="caption" color="primary" sx={{ fontWeight: 600, display: 'block' }}>
            {message.contact.name}
          </Typography>
        )}
        {quoted && !message.isDeleted && (
          <Box
            sx={{
              maxWidth: 300,
              borderLeft: 4,
              borderColor: quoted.fromMe ? 'success.main' : 'primary.main',
              bgcolor: 'action.hover',
              borderRadius: 1,
              px: 1,
              py: 0.5,
              mb: 0.5,
              overflow: 'hidden',
            }}
          >
            {!quoted.fromMe && (
              <Typography variant="caption" color="primary" sx={{ fontWeight: 600, display: 'block' }}>
                {quoted.contact?.name}
              </Typography>
            )}
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{
                whiteSpace: 'pre-wrap',
                display: '-webkit-box',
                WebkitLineClamp: 3,
                WebkitBoxOrient: 'vertical',
                overflow: 'hidden',
              }}
            >
              {quoted.body}
            </Typography>
          </Box>
        )}
        {message.isDeleted ? (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ fontStyle: 'italic', display: 'flex', alignItems: 'center', gap: 0.5, pr: 2 }}
          >
            <BlockIcon fontSize="inherit" />
            {t(mine ? 'messages.deleted' : 'messages.deletedByContact')}
          </Typography>
        ) : message.undecryptable ? (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ fontStyle: 'italic', display: 'flex', alignItems: 'center', gap: 0.5, pr: 2 }}
          >
            <UnreadableIcon fontSize="inherit" />
            {t('messages.undecryptable')}
          </Typography>
        ) : (
          <>
            {(message.mediaUrl ||
              message.mediaType === 'locationMessage' ||
              message.mediaType === 'vcard' ||
              message.mediaType === 'call_log') && <Media message={message} />}
            {!bodyIsMediaData(message) && message.body && (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', pr: 2 }}>
                {formatted(message.body)}
              </Typography>
            )}
            {Boolean(message.knowledgeArticles?.length) && (
              <Typography
                variant="caption"
                color="text.secondary"
                component="p"
                data-testid="knowledge-sources"
                sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pr: 2, mt: 0.5 }}
              >
                <ArticleIcon fontSize="inherit" aria-hidden />
                {t('messages.knowledgeSources', {
                  titles: message.knowledgeArticles!.map((a) => `${a.title} (#${a.id})`).join('; '),
                })}
              </Typography>
            )}
          </>
        )}
        <Stack direction="row" sx={{ position: 'absolute', right: 8, bottom: 2, alignItems: 'center', gap: 0.5 }}>
          {message.isEdited && (
            <Typography variant="caption" color="text.secondary">
              {t('messages.edited')}
            </Typography>
          )}
          {message.transport && (
            <Tooltip title={t(`messages.via.${message.failedOver ? 'failedOver' : message.transport}`)}>
              <Typography
                variant="caption"
                color={message.failedOver ? 'warning.main' : 'text.secondary'}
                data-testid="transport"
                aria-label={t(`messages.via.${message.failedOver ? 'failedOver' : message.transport}`)}
              >
                {t(`messages.via.short.${message.transport}`)}
              </Typography>
            </Tooltip>
          )}
          <Typography variant="caption" color="text.secondary">
            {formatTime(message.createdAt)}
          </Typography>
          {mine && message.undelivered && !message.isDeleted && (
            <Tooltip title={t('messages.undelivered')}>
              <WarningIcon
                data-testid="undelivered"
                aria-label={t('messages.undelivered')}
                role="img"
                color="warning"
                sx={{ fontSize: 16 }}
              />
            </Tooltip>
          )}
          {mine && message.resentAs && (
            <Typography variant="caption" color="text.secondary">
              {t('messages.resent')}
            </Typography>
          )}
          {mine && !message.isDeleted && (
            <Tooltip title={t(`messages.ack.${message.ack ?? 0}`)}>
              <span style={{ display: 'inline-flex' }}>
                <AckIcon ack={message.ack} />
              </span>
            </Tooltip>
          )}
        </Stack>
      </Box>
      {Boolean(message.reactions?.length) && (
        <Stack direction="row" spacing={0.5} sx={{ mt: -1.25, mx: 1, zIndex: 1 }} data-testid="reactions">
          {message.reactions!.map((r) => (
            <Tooltip key={r.by} title={r.fromMe ? t('messages.reactions.ours') : t('messages.reactions.theirs')}>
              <Box
                component="span"
                role="img"
                aria-label={t(r.fromMe ? 'messages.reactions.oursLabel' : 'messages.reactions.theirsLabel', {
                  emoji: r.emoji,
                })}
                sx={{
                  bgcolor: 'background.paper',
                  borderRadius: 3,
                  boxShadow: 1,
                  px: 0.75,
                  fontSize: 14,
                  lineHeight: '22px',
                }}
              >
                {r.emoji}
              </Box>
            </Tooltip>
          ))}
        </Stack>
      )}
      {!readOnly && canResendMessage(message) && (
        <Button size="small" color="warning" startIcon={<ReplayIcon />} onClick={() => onResend?.(message)}>
          {t('messages.resend')}
        </Button>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {onReact && message.wid && !message.undecryptable && (
          <Stack direction="row" sx={{ px: 1, pb: 0.5 }} role="group" aria-label={t('messages.reactions.menu')}>
            {QUICK_REACTIONS.map((emoji) => {
              const ours = message.reactions?.find((r) => r.fromMe)?.emoji === emoji;
              return (
                <IconButton
                  key={emoji}
                  size="small"
                  aria-label={t(ours ? 'messages.reactions.remove' : 'messages.reactions.add', { emoji })}
                  aria-pressed={ours}
                  sx={{ fontSize: 18, width: 34, height: 34, bgcolor: ours ? 'action.selected' : undefined }}
                  onClick={() => {
                    setAnchor(null);
                    onReact(message, ours ? '' : emoji);
                  }}
                >
                  {emoji}
                </IconButton>
              );
            })}
          </Stack>
        )}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onReply?.(message);
          }}
        >
          {t('messages.reply')}
        </MenuItem>
        {canDeleteMessage(message) && (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              onDelete?.(message);
            }}
          >
            {t('messages.delete')}
          </MenuItem>
        )}
      </Menu>
    </Stack>
  );
});
