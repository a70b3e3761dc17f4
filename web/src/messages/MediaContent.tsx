import { Box, Button, Link, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import PhoneMissedIcon from '@mui/icons-material/PhoneMissed';
import PersonIcon from '@mui/icons-material/Person';
import PlaceIcon from '@mui/icons-material/Place';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../lib/format';
import type { Message } from '../tickets/types';
import { safeMapsLink, safeThumbnail } from './location-links';
import { parseLocation, parseVcard } from './timeline';

/** Media renderers of 2.5: image, audio, video, application (documents), location, vcard, call log. */
export function MediaContent({ message }: { message: Message }) {
  const { t } = useTranslation('tickets');
  const url = message.mediaUrl ?? undefined;
  switch (message.mediaType) {
    case 'image':
      return (
        <Link href={url} target="_blank" rel="noreferrer">
          <Box
            component="img"
            src={url}
            alt={message.body || 'image'}
            loading="lazy"
            sx={{ display: 'block', maxWidth: '100%', width: 250, maxHeight: 300, objectFit: 'cover', borderRadius: 1 }}
          />
        </Link>
      );
    case 'audio': {
      // WhatsApp audio has no caption file: the track only declares the (empty) captions slot.
      const audio = (
        <audio controls src={url} preload="metadata" style={{ maxWidth: 260 }} aria-label={message.body || 'audio'}>
          <track kind="captions" />
        </audio>
      );
      if (!message.transcript) return audio;
      return (
        <Stack spacing={0.5} sx={{ maxWidth: 260 }}>
          {audio}
          <Box component="figure" sx={{ m: 0, pr: 2 }}>
            <Typography component="figcaption" variant="caption" color="text.secondary">
              {t('messages.transcript')}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontStyle: 'italic' }}>
              {message.transcript}
            </Typography>
          </Box>
        </Stack>
      );
    }
    case 'video':
      return (
        <Box
          component="video"
          controls
          src={url}
          preload="metadata"
          sx={{ maxWidth: '100%', width: 250, maxHeight: 300, borderRadius: 1 }}
        />
      );
    case 'locationMessage': {
      const loc = parseLocation(message.body);
      const image = safeThumbnail(loc.image);
      const link = safeMapsLink(loc.link);
      return (
        <Stack spacing={0.5}>
          {image ? (
            <Box component="img" src={image} alt="" sx={{ width: 200, borderRadius: 1 }} />
          ) : (
            loc.image && (
              <Typography variant="caption" sx={{ wordBreak: 'break-all' }}>
                {loc.image}
              </Typography>
            )
          )}
          {link ? (
            <Button size="small" startIcon={<PlaceIcon />} href={link} target="_blank" rel="noreferrer">
              {t('messages.location')}
            </Button>
          ) : (
            loc.link && (
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {loc.link}
              </Typography>
            )
          )}
          {loc.description && <Typography variant="body2">{loc.description}</Typography>}
        </Stack>
      );
    }
    case 'vcard':
    case 'contactMessage': {
      const card = parseVcard(message.body);
      return (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <PersonIcon />
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {card.name || t('messages.vcard')}
            </Typography>
            <Typography variant="caption">{card.number}</Typography>
          </Box>
        </Stack>
      );
    }
    case 'call_log':
      return (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, color: 'error.main' }}>
          <PhoneMissedIcon fontSize="small" />
          <Typography variant="body2">{t('messages.lostCall', { time: formatTime(message.createdAt) })}</Typography>
        </Stack>
      );
    default:
      if (!url) return null;
      return (
        <Button
          size="small"
          variant="outlined"
          startIcon={<DownloadIcon />}
          href={url}
          target="_blank"
          rel="noreferrer"
          sx={{ textTransform: 'none' }}
        >
          {message.body || t('messages.download')}
        </Button>
      );
  }
}
