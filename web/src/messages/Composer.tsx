import { lazy, Suspense, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  Box,
  Chip,
  CircularProgress,
  FormControlLabel,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Paper,
  Popover,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { Switch } from '../components/Switch';
import { Tooltip } from '../components/Tooltip';
import SendIcon from '@mui/icons-material/Send';
import MoodIcon from '@mui/icons-material/Mood';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import MicIcon from '@mui/icons-material/Mic';
import StopIcon from '@mui/icons-material/CheckCircleOutlined';
import CancelIcon from '@mui/icons-material/HighlightOff';
import CloseIcon from '@mui/icons-material/Close';
import CameraIcon from '@mui/icons-material/PhotoCamera';
import FileIcon from '@mui/icons-material/InsertDriveFile';
import { useTranslation } from 'react-i18next';
import { COMPOSER_MAX_ROWS } from '#shared/constants';
import { useAuth } from '../auth/AuthProvider';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { usePhone } from '../components/usePhone';
import { prefs } from '../lib/preferences';
import { asList } from '../realtime/cache';
import { useRealtimeClient, useRealtimeEvent } from '../realtime/RealtimeProvider';
import type { Message, Ticket } from '../tickets/types';
import {
  canRecord,
  canSendText,
  matchQuickReplies,
  quickReplyLabel,
  quickReplyQuery,
  signBody,
  type QuickReply,
} from './composer-rules';
import { sendMedia, sendText } from './send';
import { useRecorder } from './useRecorder';
import { useProvideCommands } from '../keyboard/commands';
import { ariaKeys } from '../keyboard/shortcuts';

// The emoji picker is big: loaded on first use only.
const EmojiPicker = lazy(() => import('emoji-picker-react'));
// The popover places itself by its first content: the loading placeholder takes the picker's size, or the
// picker, arriving taller, would hang below the screen.
const EMOJI_PICKER = { width: 350, height: 450 };
// the template picker and its button: for a ticket of a Cloud API number only
const TemplateButton = lazy(() => import('../templates/TemplateButton'));
// the attendant's AI copilot: for plans with AI only, its own chunk
const CopilotButton = lazy(() => import('../copilot/CopilotButton'));

interface Props {
  ticket: Ticket;
  /** a Cloud API ticket whose 24-hour window has closed: nothing free-form can be sent */
  windowClosed?: boolean;
  /** a ticket of a connection that reaches the Cloud API (its own, or attached): its templates can be sent */
  cloud?: boolean;
  replyTo: Message | null;
  onCancelReply(): void;
}

/** The composer of 2.6: text (up to 5 rows), emoji, media, audio, quick replies, signature, quoting. */
export function Composer({ ticket, windowClosed = false, cloud = false, replyTo, onCancelReply }: Props) {
  const { t } = useTranslation('tickets');
  const { user, plan } = useAuth();
  const [text, setText] = useState('');
  const [sign, setSign] = useState(prefs.signMessage);
  const [busy, setBusy] = useState(false);
  /** a chosen quick reply: its variables are filled by the server, and its file (if any) goes with the text */
  const [quick, setQuick] = useState<QuickReply | null>(null);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [attachAnchor, setAttachAnchor] = useState<HTMLElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  // phones and touch screens choose between a file and the camera (capture opens it straight away)
  const coarse = useMediaQuery('(pointer: coarse)');
  const offerCamera = usePhone() || coarse;
  const input = useRef<HTMLTextAreaElement>(null);
  const recorder = useRecorder();
  const realtime = useRealtimeClient();
  const open = ticket.status === 'open' && !windowClosed;
  const templateButton = cloud && (
    <Suspense fallback={null}>
      <TemplateButton ticket={ticket} windowClosed={windowClosed} />
    </Suspense>
  );
  const query = quickReplyQuery(text);
  // fetched afresh each time the suggestions open (no dedupe window) and on every quickMessage event, so a
  // reply created a moment ago, here or by a colleague, is offered at once
  const { data: quickData, mutate: refreshQuick } = useApi<unknown>(
    query !== null ? '/quick-messages/list' : null,
    { userId: user?.id },
    { dedupingInterval: 0 },
  );
  useRealtimeEvent('quickMessage', () => void refreshQuick());
  const suggestions = useMemo(
    () => (query === null ? [] : matchQuickReplies(asList<QuickReply>(quickData, 'records', 'quickMessages'), query)),
    [quickData, query],
  );

  const ready = canSendText(text) || Boolean(quick?.mediaPath);
  const send = async () => {
    if (!ready || busy || !user) return;
    const body = canSendText(text) ? signBody(text.trim(), user.name, sign) : '';
    setBusy(true);
    try {
      await sendText(ticket.id, body, replyTo, quick?.id);
      setText('');
      setQuick(null);
      onCancelReply();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const upload = async (chooser: HTMLInputElement) => {
    const files = Array.from(chooser.files ?? []);
    if (!files.length) return;
    setBusy(true);
    try {
      for (const file of files) await sendMedia(ticket.id, file, file.name, replyTo);
      onCancelReply();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
      chooser.value = '';
    }
  };
  const choose = (chooser: HTMLInputElement | null) => {
    setAttachAnchor(null);
    chooser?.click();
  };

  const startRecording = async () => {
    try {
      await recorder.start();
    } catch {
      notify.error(t('composer.micDenied'));
    }
  };
  const stopRecording = async () => {
    const result = await recorder.stop();
    if (result === 'tooShort') return notify.warning(t('composer.tooShort'));
    if (!result) return;
    setBusy(true);
    try {
      await sendMedia(ticket.id, result.blob, result.fileName, replyTo, { ptt: true });
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const chooseQuick = (q: QuickReply) => {
    setText(q.message);
    // sent with its id: the server fills its variables ({{name}}, {{contact.<key>}}) and adds its file
    setQuick(q.id ? q : null);
    input.current?.focus();
  };

  // the focus-composer shortcut and the command bar's quick replies (issue 40 item 5)
  useProvideCommands(
    'composer',
    open
      ? {
          focus: () => input.current?.focus(),
          hasFocus: () => document.activeElement === input.current,
          insertQuickMessage: chooseQuick,
        }
      : null,
  );

  return (
    <Paper square elevation={0} sx={{ borderTop: 1, borderColor: 'divider', px: 1, py: 0.75, position: 'relative' }}>
      {replyTo && (
        <Stack
          direction="row"
          sx={{
            alignItems: 'center',
            gap: 1,
            mb: 0.75,
            px: 1,
            py: 0.5,
            borderLeft: 4,
            borderColor: 'primary.main',
            bgcolor: 'action.hover',
            borderRadius: 1,
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" color="primary" sx={{ fontWeight: 600 }}>
              {t('composer.replyingTo', {
                name: replyTo.fromMe ? t('composer.you') : (replyTo.contact?.name ?? ticket.contact?.name ?? ''),
              })}
            </Typography>
            <Typography variant="body2" noWrap color="text.secondary">
              {replyTo.body}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t('composer.cancelReply')} onClick={onCancelReply}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Stack>
      )}
      {windowClosed && templateButton}
      {quick?.mediaPath && (
        <Chip
          size="small"
          icon={<AttachFileIcon />}
          label={quick.mediaName ?? quick.shortcode}
          aria-label={t('composer.quickMedia', { name: quick.mediaName ?? quick.shortcode })}
          onDelete={() => setQuick(null)}
          sx={{ mb: 0.5, ml: 1, maxWidth: 320 }}
        />
      )}
      {suggestions.length > 0 && (
        <Paper
          elevation={4}
          sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxHeight: 240, overflowY: 'auto', zIndex: 2 }}
        >
          <List dense aria-label={t('composer.quickReplies')}>
            {suggestions.map((q) => (
              <ListItemButton key={q.id ?? q.shortcode} onClick={() => chooseQuick(q)}>
                <ListItemText primary={quickReplyLabel(q)} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      <Stack direction="row" sx={{ alignItems: 'flex-end', gap: 0.5 }}>
        {recorder.state === 'recording' ? (
          <Stack direction="row" sx={{ flex: 1, alignItems: 'center', gap: 1, py: 1 }}>
            <Box
              sx={{
                width: 10,
                height: 10,
                borderRadius: '50%',
                bgcolor: 'error.main',
                animation: 'pulse 1s infinite',
                '@keyframes pulse': { '50%': { opacity: 0.3 } },
              }}
            />
            <Typography sx={{ flex: 1 }}>{t('composer.recording')}</Typography>
            <IconButton aria-label={t('composer.cancelRecording')} color="error" onClick={() => void recorder.cancel()}>
              <CancelIcon />
            </IconButton>
            <IconButton aria-label={t('composer.stopRecording')} color="success" onClick={() => void stopRecording()}>
              <StopIcon />
            </IconButton>
          </Stack>
        ) : (
          <>
            <Tooltip title={t('composer.emoji')}>
              <span>
                <IconButton
                  aria-label={t('composer.emoji')}
                  disabled={!open}
                  onClick={(e) => setEmojiAnchor(e.currentTarget)}
                >
                  <MoodIcon />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title={t('composer.attach')}>
              <span>
                <IconButton
                  aria-label={t('composer.attach')}
                  aria-haspopup={offerCamera ? 'menu' : undefined}
                  disabled={!open || busy}
                  onClick={(e) => (offerCamera ? setAttachAnchor(e.currentTarget) : fileInput.current?.click())}
                >
                  <AttachFileIcon />
                </IconButton>
              </span>
            </Tooltip>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              onChange={(e) => void upload(e.currentTarget)}
              data-testid="composer-file"
            />
            {!windowClosed && templateButton}
            {plan?.useOpenAi && (
              <Suspense fallback={null}>
                <CopilotButton
                  ticketId={ticket.id}
                  text={text}
                  writable={open}
                  onDraft={(next) => {
                    setText(next);
                    input.current?.focus();
                  }}
                />
              </Suspense>
            )}
            {offerCamera && (
              <>
                <input
                  ref={cameraInput}
                  type="file"
                  accept="image/*,video/*"
                  capture="environment"
                  hidden
                  onChange={(e) => void upload(e.currentTarget)}
                  data-testid="composer-camera"
                />
                <Menu
                  anchorEl={attachAnchor}
                  open={Boolean(attachAnchor)}
                  onClose={() => setAttachAnchor(null)}
                  anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
                  transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
                >
                  <MenuItem onClick={() => choose(fileInput.current)}>
                    <ListItemIcon>
                      <FileIcon fontSize="small" />
                    </ListItemIcon>
                    {t('composer.attachFile')}
                  </MenuItem>
                  <MenuItem onClick={() => choose(cameraInput.current)}>
                    <ListItemIcon>
                      <CameraIcon fontSize="small" />
                    </ListItemIcon>
                    {t('composer.attachCamera')}
                  </MenuItem>
                </Menu>
              </>
            )}
            <TextField
              inputRef={input}
              multiline
              maxRows={COMPOSER_MAX_ROWS}
              fullWidth
              size="small"
              disabled={!open}
              placeholder={
                open
                  ? t('composer.placeholder')
                  : windowClosed
                    ? t('composer.placeholderWindowClosed')
                    : t('composer.placeholderClosed')
              }
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                // the other viewers see "typing" (the client sends one signal per 3 s at most)
                if (e.target.value) realtime?.typing(ticket.id);
              }}
              onKeyDown={onKeyDown}
              slotProps={{
                htmlInput: { 'aria-label': t('composer.placeholder'), 'aria-keyshortcuts': ariaKeys('focusComposer') },
              }}
              sx={{ '& .MuiInputBase-root': { borderRadius: 3 } }}
            />
            {ready || !canRecord(ticket.status) || windowClosed ? (
              <IconButton
                aria-label={t('composer.send')}
                color="primary"
                disabled={!open || busy || !ready}
                onClick={() => void send()}
              >
                {busy ? <CircularProgress size={22} /> : <SendIcon />}
              </IconButton>
            ) : (
              <IconButton aria-label={t('composer.record')} disabled={busy} onClick={() => void startRecording()}>
                {busy ? <CircularProgress size={22} /> : <MicIcon />}
              </IconButton>
            )}
          </>
        )}
      </Stack>
      <FormControlLabel
        sx={{ ml: 0.5, '& .MuiFormControlLabel-label': { fontSize: 13 } }}
        control={
          <Switch
            size="small"
            checked={sign}
            onChange={(e) => {
              setSign(e.target.checked);
              prefs.setSignMessage(e.target.checked);
            }}
          />
        }
        label={t('composer.sign')}
      />
      <Popover
        open={Boolean(emojiAnchor)}
        anchorEl={emojiAnchor}
        onClose={() => setEmojiAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Suspense
          fallback={
            <Box sx={{ ...EMOJI_PICKER, display: 'grid', placeItems: 'center' }}>
              <CircularProgress />
            </Box>
          }
        >
          {/* native glyphs: the default style downloads emoji images from a CDN at run time */}
          <EmojiPicker
            onEmojiClick={(e) => setText((v) => v + e.emoji)}
            emojiStyle={'native'}
            lazyLoadEmojis
            {...EMOJI_PICKER}
          />
        </Suspense>
      </Popover>
    </Paper>
  );
}
