import { useState } from 'react';
import { Box, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { QuickMessage } from '#shared/schemas/quick-messages';
import { useAuth } from '../auth/AuthProvider';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { QuickMessageModal } from './QuickMessageModal';

/** Quick messages (management.md "Quick messages"): shortcode, media name, actions; searchable, paged, live. */
export default function QuickMessagesPage() {
  const { t } = useTranslation(['quickMessages', 'common']);
  const { user } = useAuth();
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<QuickMessage>(user ? '/quick-messages' : null, 'records', {
    searchParam: search,
    userId: user?.id,
  });
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  useRealtimeEvent<{
    action: string;
    record?: QuickMessage;
    quickMessage?: QuickMessage;
    id?: number;
    quickMessageId?: number;
  }>('quickMessage', (ev) => {
    const id = ev.id ?? ev.quickMessageId;
    const record = ev.record ?? ev.quickMessage;
    if (ev.action === 'delete' && id !== undefined) list.remove(Number(id));
    else if (record && (!search || record.shortcode.toLowerCase().includes(search))) list.upsert(record);
  });

  const remove = (q: QuickMessage) =>
    confirmedDelete({
      message: t('confirmDelete', { shortcode: q.shortcode }),
      path: `/quick-messages/${q.id}`,
      onDeleted: () => list.remove(q.id),
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
            <TableCell>{t('columns.shortcode')}</TableCell>
            <TableCell>{t('columns.mediaName')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((q) => (
            <TableRow key={q.id} hover>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  /{q.shortcode}
                </Typography>
                <Typography variant="caption" color="text.secondary" noWrap component="div" sx={{ maxWidth: 480 }}>
                  {q.message}
                </Typography>
              </TableCell>
              <TableCell>
                {q.mediaName || (
                  <Typography variant="body2" color="text.secondary">
                    {t('noMedia')}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { shortcode: q.shortcode })}
                  onClick={() => setModal({ id: q.id })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('delete', { shortcode: q.shortcode })}
                  onClick={() => void remove(q)}
                >
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
      <QuickMessageModal open={modal !== null} id={modal?.id} onClose={() => setModal(null)} onSaved={list.upsert} />
    </PageFrame>
  );
}
