import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Chip, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS, REDIRECT_DELAY_MS } from '#shared/constants';
import type { Announcement } from '#shared/schemas/announcements';
import { useAuth } from '../auth/AuthProvider';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { notify } from '../components/toast';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { AnnouncementModal } from './AnnouncementModal';
import { PRIORITY_COLOR } from './AnnouncementsPopover';

/** Announcements (management.md "Announcements"): super users only; others are sent to / after 1 s. */
export default function AnnouncementsPage() {
  const { t } = useTranslation('announcements');
  const { user } = useAuth();
  const navigate = useNavigate();
  const isSuper = Boolean(user?.super);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<Announcement>(isSuper ? '/announcements' : null, 'records', {
    searchParam: search,
    status: 'all',
  });
  const [modal, setModal] = useState<{ announcement?: Announcement } | null>(null);

  useEffect(() => {
    if (!user || isSuper) return;
    notify.info(t('superOnly'));
    const timer = setTimeout(() => void navigate('/'), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [user, isSuper, navigate, t]);

  // inactive ones travel as removals to the companies: the super user's table reloads instead
  useRealtimeEvent('announcement', () => void list.reload());

  if (!isSuper) return null;
  const remove = (a: Announcement) =>
    confirmedDelete({
      message: t('confirmDelete', { title: a.title }),
      path: `/announcements/${a.id}`,
      onDeleted: () => list.remove(a.id),
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={t('title')}
      onScroll={list.onScroll}
      actions={
        <ListToolbar
          searchLabel={t('search')}
          search={text}
          onSearch={setText}
          addLabel={t('add')}
          onAdd={() => setModal({})}
        />
      }
    >
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.title')}</TableCell>
            <TableCell align="center">{t('columns.priority')}</TableCell>
            <TableCell align="center">{t('columns.mediaName')}</TableCell>
            <TableCell align="center">{t('columns.status')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((a) => (
            <TableRow key={a.id} hover>
              <TableCell>{a.title}</TableCell>
              <TableCell align="center">
                <Chip
                  size="small"
                  label={t(`priority.${a.priority}`)}
                  sx={{ bgcolor: PRIORITY_COLOR[a.priority], color: 'common.white' }}
                />
              </TableCell>
              <TableCell align="center">{a.mediaName ?? '-'}</TableCell>
              <TableCell align="center">{a.status ? t('status.active') : t('status.inactive')}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { title: a.title })}
                  onClick={() => setModal({ announcement: a })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { title: a.title })} onClick={() => void remove(a)}>
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!list.isLoading && list.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <AnnouncementModal
        open={modal !== null}
        announcement={modal?.announcement}
        onClose={() => setModal(null)}
        onSaved={list.upsert}
      />
    </PageFrame>
  );
}
