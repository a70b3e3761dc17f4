import { useState } from 'react';
import {
  Box,
  Card,
  CardActionArea,
  CardContent,
  CardMedia,
  Dialog,
  DialogContent,
  DialogTitle,
  IconButton,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import PlayCircleIcon from '@mui/icons-material/PlayCircleOutlined';
import { useTranslation } from 'react-i18next';
import { useApi } from '../api/swr';
import { asList } from '../realtime/cache';
import { embedUrl, thumbnailUrl, youtubeId } from './video';

interface Help {
  id: number;
  title: string;
  description: string;
  video: string;
}

/** The help centre (management.md "Help page"): video cards, a modal player closed by Escape. */
export default function HelpsPage() {
  const { t } = useTranslation('helps');
  const { data, isLoading } = useApi<Help[]>('/helps');
  const helps = asList<Help>(data, 'records');
  const [playing, setPlaying] = useState<Help | null>(null);
  const playingId = playing ? youtubeId(playing.video) : null;

  return (
    <Box sx={{ p: 2, height: '100%', overflowY: 'auto' }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('title')}
      </Typography>
      {!isLoading && helps.length === 0 && <Typography color="text.secondary">{t('empty')}</Typography>}
      <Box
        component="ul"
        aria-label={t('title')}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
        }}
      >
        {helps.map((help) => {
          const id = youtubeId(help.video);
          return (
            <li key={help.id}>
              <Card variant="outlined" sx={{ height: '100%' }}>
                <CardActionArea aria-label={t('play', { title: help.title })} onClick={() => setPlaying(help)}>
                  {id ? (
                    <CardMedia component="img" height="150" image={thumbnailUrl(id)} alt="" />
                  ) : (
                    <Box sx={{ height: 150, display: 'grid', placeItems: 'center', bgcolor: 'action.hover' }}>
                      <PlayCircleIcon fontSize="large" />
                    </Box>
                  )}
                  <CardContent>
                    <Typography variant="subtitle1">{help.title}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {help.description}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </li>
          );
        })}
      </Box>
      <Dialog
        open={Boolean(playing)}
        onClose={() => setPlaying(null)}
        fullWidth
        maxWidth="md"
        aria-labelledby="help-title"
      >
        {playing && (
          <>
            <DialogTitle id="help-title" sx={{ pr: 6 }}>
              {playing.title}
              <IconButton
                aria-label={t('close')}
                onClick={() => setPlaying(null)}
                sx={{ position: 'absolute', right: 8, top: 8 }}
              >
                <CloseIcon />
              </IconButton>
            </DialogTitle>
            <DialogContent>
              {playingId ? (
                <Box
                  component="iframe"
                  title={playing.title}
                  src={embedUrl(playingId)}
                  allow="autoplay; encrypted-media; picture-in-picture"
                  allowFullScreen
                  sx={{ width: '100%', aspectRatio: '16 / 9', border: 0 }}
                />
              ) : (
                <Typography>{playing.description}</Typography>
              )}
            </DialogContent>
          </>
        )}
      </Dialog>
    </Box>
  );
}
