import { useState } from 'react';
import { Box, Chip, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import ViewKanbanIcon from '@mui/icons-material/ViewKanbanOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { Tag } from '#shared/schemas/tags';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { textOn } from '../queues/palette';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { TagModal } from './TagModal';

/** Tags (management.md "Tags"): name as a coloured chip, tickets count, actions; searchable, paged, live. */
export default function TagsPage() {
  const { t } = useTranslation(['tags', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const tags = usePagedList<Tag>('/tags', 'tags', { searchParam: search });
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  useRealtimeEvent<{ action: string; tag?: Tag; tagId?: number }>('tag', (ev) => {
    if (ev.action === 'delete' && ev.tagId !== undefined) tags.remove(Number(ev.tagId));
    else if (ev.tag && (!search || ev.tag.name.toLowerCase().includes(search))) tags.upsert(ev.tag);
  });

  const remove = (tag: Tag) =>
    confirmedDelete({
      message: t('confirmDelete', { name: tag.name }),
      path: `/tags/${tag.id}`,
      onDeleted: () => tags.remove(tag.id),
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={t('title')}
      onScroll={tags.onScroll}
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
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.tickets')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tags.items.map((tag) => (
            <TableRow key={tag.id} hover>
              <TableCell>
                <Chip size="small" label={tag.name} sx={{ bgcolor: tag.color, color: (th) => textOn(th, tag.color) }} />
                {tag.kanban === 1 && (
                  <ViewKanbanIcon
                    fontSize="small"
                    titleAccess={t('columns.kanban')}
                    sx={{ ml: 1, verticalAlign: 'middle', color: 'text.secondary' }}
                  />
                )}
              </TableCell>
              <TableCell align="center">{tag.ticketsCount ?? 0}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: tag.name })}
                  onClick={() => setModal({ id: tag.id })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { name: tag.name })} onClick={() => void remove(tag)}>
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!tags.isLoading && tags.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <TagModal open={modal !== null} tagId={modal?.id} onClose={() => setModal(null)} onSaved={tags.upsert} />
    </PageFrame>
  );
}
