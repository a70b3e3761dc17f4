import { useState } from 'react';
import { Box, Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { QuickMessage } from '#shared/schemas/quick-messages';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { useConfirm } from '../components/ConfirmProvider';
import { PageFrame } from '../components/PageFrame';
import { SearchField, searchParam } from '../components/SearchField';
import { notify } from '../components/toast';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { QuickMessageModal } from './QuickMessageModal';

/** Quick messages (management.md "Quick messages"): shortcode, media name, actions; searchable, paged, live. */
export default function QuickMessagesPage() {
  const { t } = useTranslation(['quickMessages', 'common']);
  const { user } = useAuth();
  const confirm = useConfirm();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<QuickMessage>(user ? '/quick-messages' : null, 'records', { searchParam: search, userId: user?.id });
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  useRealtimeEvent<{ action: string; record?: QuickMessage; quickMessage?: QuickMessage; id?: number; quickMessageId?: number }>('quickMessage', (ev) => {
    const id = ev.id ?? ev.quickMessageId;
    const record = ev.record ?? ev.quickMessage;
    if (ev.action === 'delete' && id !== undefined) list.remove(Number(id));
    else if (record && (!search || record.shortcode.toLowerCase().includes(search))) list.upsert(record);
  });

  const remove = async (q: QuickMessage) => {
    if (!(await confirm({ message: t('confirmDelete', { shortcode: q.shortcode }) }))) return;
    try {
      await api.delete(`/quick-messages/${q.id}`);
      list.remove(q.id);
      notify.success(t('deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <PageFrame
      title={t('title')}
      onScroll={list.onScroll}
      actions={
        <>
          <SearchField label={t('search')} value={text} onChange={setText} />
          <Button variant="contained" onClick={() => setModal({})}>
            {t('add')}
          </Button>
        </>
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
              <TableCell>{q.mediaName || <Typography variant="body2" color="text.secondary">{t('noMedia')}</Typography>}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton size="small" aria-label={t('edit', { shortcode: q.shortcode })} onClick={() => setModal({ id: q.id })}>
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { shortcode: q.shortcode })} onClick={() => void remove(q)}>
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
