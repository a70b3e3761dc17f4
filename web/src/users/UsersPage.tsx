import { useState } from 'react';
import { Box, Chip, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import { useAuth } from '../auth/AuthProvider';
import type { SessionUser } from '../auth/types';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useApi } from '../api/swr';
import { asList } from '../realtime/cache';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { textOn } from '../queues/palette';
import { UserModal } from './UserModal';

/** Users (attendance.md 2.14): searchable, paged, live list with the user modal and its permission rules. */
export default function UsersPage() {
  const { t } = useTranslation(['users', 'common']);
  const { user: me } = useAuth();
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const users = usePagedList<SessionUser>('/users', 'users', { searchParam: search });
  const [modal, setModal] = useState<{ id?: number } | null>(null);
  const { data: queueData } = useApi<unknown>('/queue');
  const queues = asList<{ id: number; name: string; color: string }>(queueData, 'queues');

  useRealtimeEvent<{ action: string; user?: SessionUser; userId?: number }>('user', (ev) => {
    if (ev.action === 'delete' && ev.userId !== undefined) users.remove(Number(ev.userId));
    else if (
      ev.user &&
      (!search || ev.user.name.toLowerCase().includes(search) || ev.user.email.toLowerCase().includes(search))
    )
      users.upsert(ev.user);
  });

  const remove = (u: SessionUser) =>
    confirmedDelete({
      message: t('confirmDelete', { name: u.name }),
      path: `/users/${u.id}`,
      onDeleted: () => users.remove(u.id),
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={t('title')}
      onScroll={users.onScroll}
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
            <TableCell>{t('columns.id')}</TableCell>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell>{t('columns.email')}</TableCell>
            <TableCell align="center">{t('columns.profile')}</TableCell>
            <TableCell>{t('columns.queues')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.items.map((u) => (
            <TableRow key={u.id} hover>
              <TableCell>{u.id}</TableCell>
              <TableCell>{u.name}</TableCell>
              <TableCell>{u.email}</TableCell>
              <TableCell align="center">
                <Chip
                  size="small"
                  variant={u.profile === 'admin' ? 'filled' : 'outlined'}
                  color={u.profile === 'admin' ? 'primary' : 'default'}
                  label={t(`common:userModal.profiles.${u.profile}`)}
                />
              </TableCell>
              <TableCell>
                {queues
                  .filter((q) => (u.queueIds ?? u.queues?.map((x) => x.id) ?? []).includes(q.id))
                  .map((q) => (
                    <Chip
                      key={q.id}
                      size="small"
                      label={q.name}
                      sx={{ mr: 0.5, bgcolor: q.color, color: (th) => textOn(th, q.color) }}
                    />
                  ))}
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: u.name })}
                  onClick={() => setModal({ id: u.id })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('delete', { name: u.name })}
                  onClick={() => void remove(u)}
                  disabled={u.id === me?.id}
                >
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!users.isLoading && users.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <UserModal
        open={modal !== null}
        userId={modal?.id}
        onClose={() => setModal(null)}
        onSaved={(u) => users.upsert(u)}
      />
    </PageFrame>
  );
}
