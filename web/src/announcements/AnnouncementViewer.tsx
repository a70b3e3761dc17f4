import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Announcement } from '#shared/schemas/announcements';

/** The announcement viewer (attendance.md 2.13): title, text and its image. */
export function AnnouncementViewer({ announcement, onClose }: { announcement: Announcement | null; onClose(): void }) {
  const { t } = useTranslation('announcements');
  return (
    <Dialog open={Boolean(announcement)} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="announcement-title">
      {announcement && (
        <>
          <DialogTitle id="announcement-title">{announcement.title}</DialogTitle>
          <DialogContent>
            {announcement.mediaUrl && (
              <Box
                component="img"
                src={announcement.mediaUrl}
                alt={announcement.mediaName ?? ''}
                sx={{ maxWidth: '100%', display: 'block', mx: 'auto', mb: 2, borderRadius: 1 }}
              />
            )}
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{announcement.text}</Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('viewer.close')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
