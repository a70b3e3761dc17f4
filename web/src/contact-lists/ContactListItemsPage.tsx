import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import BlockIcon from '@mui/icons-material/Block';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type {
  ContactList,
  ContactListDetail,
  ContactListImportResult,
  ContactListItem,
} from '#shared/schemas/contact-lists';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { ContactListItemModal } from './ContactListItemModal';
import { ImportResultDialog } from './ImportResultDialog';
import {
  IMPORT_ACCEPT,
  LIVE_BATCH_MS,
  checksNotice,
  concernsList,
  isSpreadsheet,
  mergeLive,
  overlayLive,
  validity,
} from './contact-list-rules';

/**
 * The items of one contact list (management.md "Contact lists"): back, import (.xls/.xlsx, refused
 * rows shown with their lines), add, edit, delete, search and paging, and a WhatsApp validity icon
 * per row that changes live as the session runner checks the numbers, and how many numbers the
 * connection may still check today (or why checks wait, and until when).
 */
export default function ContactListItemsPage() {
  const { t } = useTranslation(['contactLists', 'common']);
  const navigate = useNavigate();
  const listId = Number(useParams().contactListId);
  const confirmedDelete = useConfirmedDelete();
  const { data: contactList, mutate: reloadList } = useApi<ContactListDetail>(`/contact-lists/${listId}`);
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<ContactListItem>('/contact-list-items', 'contacts', {
    contactListId: listId,
    searchParam: search,
  });
  const [modal, setModal] = useState<{ item: ContactListItem | null } | null>(null);
  const [importing, setImporting] = useState(false);
  const [result, setResult] = useState<ContactListImportResult | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // Updates (the background WhatsApp checks: one per imported row) are kept beside the pages and
  // laid over the rows, newest wins: a row still loading or reloading never misses its check.
  const [live, setLive] = useState<Map<number, ContactListItem>>(() => new Map());
  const pendingLive = useRef<ContactListItem[]>([]);
  const liveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (liveTimer.current && clearTimeout(liveTimer.current)), []);
  const noteLive = (r: ContactListItem) => {
    pendingLive.current.push(r);
    liveTimer.current ??= setTimeout(() => {
      liveTimer.current = null;
      const batch = pendingLive.current.splice(0);
      setLive((m) => mergeLive(m, batch));
      // each check answered took one from today's checks left
      void reloadList();
    }, LIVE_BATCH_MS);
  };
  const rows = useMemo(() => overlayLive(list.items, live), [list.items, live]);

  useRealtimeEvent<{ action: string; record?: ContactListItem; id?: number; contactListId?: number }>(
    'contactListItem',
    (ev) => {
      if (!concernsList(ev, listId)) return;
      if (ev.action === 'reload') void list.reload();
      else if (ev.action === 'delete' && ev.id !== undefined) list.remove(Number(ev.id));
      else if (ev.action === 'update' && ev.record) noteLive(ev.record);
      else if (ev.record) {
        const r = ev.record;
        if (!search || `${r.name} ${r.number} ${r.email}`.toLowerCase().includes(search)) list.upsert(r);
      }
    },
  );
  useRealtimeEvent<{ action: string; record?: ContactList; id?: number }>('contactList', (ev) => {
    // read again: the event's record does not carry the checks left today
    if (ev.record?.id === listId) void reloadList();
    else if (ev.action === 'delete' && Number(ev.id) === listId) void navigate('/contact-lists');
  });

  const notice = contactList ? checksNotice(contactList) : null;

  const upload = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    if (!isSpreadsheet(file.name)) return notify.error(t('items.badFile'));
    const form = new FormData();
    form.append('file', file);
    setImporting(true);
    try {
      setResult(await api.post<ContactListImportResult>(`/contact-lists/${listId}/upload`, form));
      void list.reload();
    } catch (err) {
      toastError(err);
    } finally {
      setImporting(false);
    }
  };

  const remove = (i: ContactListItem) =>
    confirmedDelete({
      message: t('items.confirmDelete', { name: i.name }),
      path: `/contact-list-items/${i.id}`,
      onDeleted: () => list.remove(i.id),
      deleted: t('items.deleted'),
    });

  const icon = (i: ContactListItem) => {
    const v = validity(i);
    const label = t(`items.${v}`);
    return (
      <Tooltip title={label}>
        {v === 'valid' ? (
          <CheckCircleIcon color="success" titleAccess={label} data-validity={v} />
        ) : v === 'invalid' ? (
          <BlockIcon color="error" titleAccess={label} data-validity={v} />
        ) : (
          <HourglassEmptyIcon color="disabled" titleAccess={label} data-validity={v} />
        )}
      </Tooltip>
    );
  };

  return (
    <PageFrame
      title={
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <IconButton aria-label={t('items.back')} onClick={() => void navigate('/contact-lists')}>
            <ArrowBackIcon />
          </IconButton>
          {t('items.title', { name: contactList?.name ?? '' })}
        </Box>
      }
      onScroll={list.onScroll}
      actions={
        <ListToolbar
          searchLabel={t('items.search')}
          search={text}
          onSearch={setText}
          addLabel={t('items.add')}
          onAdd={() => setModal({ item: null })}
        >
          <input
            ref={fileInput}
            type="file"
            hidden
            accept={IMPORT_ACCEPT}
            aria-label={t('items.import')}
            onChange={(e) => void upload(e.target.files?.[0])}
          />
          <Button
            variant="outlined"
            startIcon={importing ? <CircularProgress size={16} /> : <UploadFileIcon />}
            disabled={importing}
            onClick={() => fileInput.current?.click()}
          >
            {importing ? t('items.importing') : t('items.import')}
          </Button>
        </ListToolbar>
      }
    >
      {notice && (
        <Alert severity={notice.severity} role="status" sx={{ mb: 1 }}>
          {t(notice.key, notice.values)}
        </Alert>
      )}
      <Table size="small" stickyHeader aria-label={t('items.title', { name: contactList?.name ?? '' })}>
        <TableHead>
          <TableRow>
            <TableCell align="center" sx={{ width: 90 }}>
              {t('items.columns.valid')}
            </TableCell>
            <TableCell>{t('items.columns.name')}</TableCell>
            <TableCell>{t('items.columns.number')}</TableCell>
            <TableCell>{t('items.columns.email')}</TableCell>
            <TableCell align="center">{t('items.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((i) => (
            <TableRow key={i.id} hover data-testid={`item-${i.number}`}>
              <TableCell align="center">{icon(i)}</TableCell>
              <TableCell>{i.name}</TableCell>
              <TableCell>{i.number}</TableCell>
              <TableCell>{i.email}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('items.edit', { name: i.name })}
                  onClick={() => setModal({ item: i })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('items.delete', { name: i.name })}
                  onClick={() => void remove(i)}
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
          <Typography color="text.secondary">{t('items.empty')}</Typography>
        </Box>
      )}
      <ContactListItemModal
        open={modal !== null}
        listId={listId}
        item={modal?.item ?? null}
        onClose={() => setModal(null)}
        onSaved={list.upsert}
      />
      <ImportResultDialog result={result} onClose={() => setResult(null)} />
    </PageFrame>
  );
}
