import { useState } from 'react';
import { Box, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { FileList } from '#shared/schemas/files';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { FileListDialog } from './FileListDialog';
import { titleWithCount } from './file-options';

/**
 * File lists (management.md "Files"): title with the count of loaded lists, a lower-cased search,
 * name and actions, more lists 100 px from the bottom; live through the `file` event.
 */
export default function FilesPage() {
  const { t } = useTranslation(['files', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<FileList>('/files', 'files', { searchParam: search });
  const [dialog, setDialog] = useState<{ id?: number } | null>(null);

  useRealtimeEvent<{ action: string; files?: FileList; fileId?: number }>('file', (ev) => {
    if (ev.action === 'delete' && ev.fileId !== undefined) list.remove(Number(ev.fileId));
    else if (ev.files && (!search || ev.files.name.toLowerCase().includes(search))) list.upsert(ev.files);
  });

  // Section 4: deleting a list resets the list, the search and the page, and reloads.
  const remove = (f: FileList) =>
    confirmedDelete({
      message: t('confirmDelete', { name: f.name }),
      path: `/files/${f.id}`,
      onDeleted: () => {
        setText('');
        void list.reload();
      },
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={titleWithCount(t('title'), list.items.length)}
      onScroll={list.onScroll}
      actions={
        <ListToolbar
          searchLabel={t('search')}
          search={text}
          onSearch={setText}
          addLabel={t('add')}
          onAdd={() => setDialog({})}
        />
      }
    >
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center" sx={{ width: 140 }}>
              {t('columns.actions')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((f) => (
            <TableRow key={f.id} hover>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {f.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" noWrap component="div" sx={{ maxWidth: 560 }}>
                  {f.message}
                </Typography>
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: f.name })}
                  onClick={() => setDialog({ id: f.id })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { name: f.name })} onClick={() => void remove(f)}>
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
      <FileListDialog open={dialog !== null} id={dialog?.id} onClose={() => setDialog(null)} onSaved={list.upsert} />
    </PageFrame>
  );
}
