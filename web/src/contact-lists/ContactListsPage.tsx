import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import PeopleIcon from '@mui/icons-material/People';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { ContactList } from '#shared/schemas/contact-lists';
import { toastError } from '../api/toast-error';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { ContactListModal } from './ContactListModal';
import { downloadFile } from './download';

/** Contact lists (management.md "Contact lists"): name, contacts count, actions; live. */
export default function ContactListsPage() {
  const { t } = useTranslation(['contactLists', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<ContactList>('/contact-lists', 'records', { searchParam: search });
  const [modal, setModal] = useState<{ list: ContactList | null } | null>(null);

  useRealtimeEvent<{ action: string; record?: ContactList; id?: number }>('contactList', (ev) => {
    if (ev.action === 'delete' && ev.id !== undefined) list.remove(Number(ev.id));
    else if (ev.record && (!search || ev.record.name.toLowerCase().includes(search))) list.upsert(ev.record);
  });

  const remove = (l: ContactList) =>
    confirmedDelete({
      message: t('confirmDelete', { name: l.name }),
      path: `/contact-lists/${l.id}`,
      onDeleted: () => list.remove(l.id),
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
          onAdd={() => setModal({ list: null })}
        />
      }
    >
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.contactsCount')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((l) => (
            <TableRow key={l.id} hover>
              <TableCell>{l.name}</TableCell>
              <TableCell align="center">{l.contactsCount ?? 0}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('sample')}>
                  <IconButton
                    size="small"
                    aria-label={t('sample')}
                    onClick={() =>
                      void downloadFile('/contact-lists/sample', 'planilha_exemplo.xlsx').catch(toastError)
                    }
                  >
                    <DownloadIcon />
                  </IconButton>
                </Tooltip>
                <IconButton
                  size="small"
                  aria-label={t('open', { name: l.name })}
                  component={RouterLink}
                  to={`/contact-lists/${l.id}/contacts`}
                >
                  <PeopleIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('edit', { name: l.name })} onClick={() => setModal({ list: l })}>
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { name: l.name })} onClick={() => void remove(l)}>
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
      <ContactListModal
        open={modal !== null}
        list={modal?.list ?? null}
        onClose={() => setModal(null)}
        onSaved={list.upsert}
      />
    </PageFrame>
  );
}
