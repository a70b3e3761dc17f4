import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { Queue } from '#shared/schemas/queues';
import { useApi } from '../api/swr';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { PageFrame } from '../components/PageFrame';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList, liveMutation, removeById, upsertById } from '../realtime/cache';
import { QueueModal } from './QueueModal';
import { textOn } from './palette';

const byOrder = (a: Queue, b: Queue) => (a.orderQueue ?? Infinity) - (b.orderQueue ?? Infinity) || a.id - b.id;

/** Queues & chatbot (management.md "Queues"): id, name, colour, orderQueue, greeting, actions; live. */
export default function QueuesPage() {
  const { t } = useTranslation(['queues', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const { data, mutate, isLoading } = useApi<unknown>('/queue');
  const list = asList<Queue>(data, 'queues').slice().sort(byOrder);
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  useRealtimeEvent<{ action: string; queue?: Queue; queueId?: number }>('queue', (ev) => {
    if (ev.action === 'delete' && ev.queueId !== undefined)
      void mutate((d: unknown) => removeById(asList<Queue>(d, 'queues'), ev.queueId!), liveMutation(data));
    else if (ev.queue)
      void mutate((d: unknown) => upsertById(asList<Queue>(d, 'queues'), ev.queue!, 'end'), liveMutation(data));
  });

  const remove = (q: Queue) =>
    confirmedDelete({
      message: t('confirmDelete', { name: q.name }),
      path: `/queue/${q.id}`,
      onDeleted: () => void mutate((d: unknown) => removeById(asList<Queue>(d, 'queues'), q.id), { revalidate: false }),
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={t('title')}
      actions={
        <Button variant="contained" onClick={() => setModal({})}>
          {t('add')}
        </Button>
      }
    >
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.id')}</TableCell>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.color')}</TableCell>
            <TableCell align="center">{t('columns.orderQueue')}</TableCell>
            <TableCell>{t('columns.greeting')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((q) => (
            <TableRow key={q.id} hover>
              <TableCell>{q.id}</TableCell>
              <TableCell>{q.name}</TableCell>
              <TableCell align="center">
                <Chip
                  size="small"
                  label={q.color}
                  sx={{ bgcolor: q.color, color: (th) => textOn(th, q.color), fontFamily: 'monospace' }}
                />
              </TableCell>
              <TableCell align="center">{q.orderQueue ?? ''}</TableCell>
              <TableCell sx={{ maxWidth: 360 }}>
                <Typography variant="body2" noWrap title={q.greetingMessage}>
                  {q.greetingMessage}
                </Typography>
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: q.name })}
                  onClick={() => setModal({ id: q.id })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { name: q.name })} onClick={() => void remove(q)}>
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!isLoading && list.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <QueueModal
        open={modal !== null}
        queueId={modal?.id}
        takenColors={list.filter((q) => q.id !== modal?.id).map((q) => q.color)}
        onClose={() => {
          setModal(null);
          void mutate();
        }}
      />
    </PageFrame>
  );
}
