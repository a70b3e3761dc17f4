import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Avatar,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import UploadIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import MergeIcon from '@mui/icons-material/MergeType';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import { can } from '#shared/permissions';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { notify, toasts } from '../components/toast';
import { usePhone } from '../components/usePhone';
import { useDebouncedValue } from '../lib/debounce';
import { readPage } from '../lib/paged';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { NewTicketModal } from '../tickets/NewTicketModal';
import type { Contact } from '../tickets/types';
import { ContactModal } from './ContactModal';
import { DuplicatesDialog } from './DuplicatesDialog';
import { contactsCsv, downloadCsv } from './contacts-export';
import { importErrors, readContactsFile, type ImportResult } from './contacts-import';
import { shownNumber } from './contact-number';
import { useCustomFields } from '../custom-fields/useCustomFields';
import { ContactFieldFilter, fieldFilterQuery, matchesFieldFilter, type FieldFilter } from './ContactFieldFilter';
import { SegmentPicker } from '../segments/SegmentPicker';
import { useSegments } from '../segments/useSegments';
import { contactMatchesSegment } from '#shared/schemas/segments';

/**
 * Every contact, page after page, for the export (the list on screen holds only the pages scrolled so
 * far). The first page says it is an export: the server puts the export on the audit trail.
 */
async function allContacts(filter: { field?: string; fieldValue?: string; segmentId?: number }) {
  const out: Contact[] = [];
  let cursor: string | undefined;
  for (;;) {
    const query = { cursor, limit: 100, export: cursor ? undefined : true, ...filter };
    const page = readPage<Contact>(await api.get('/contacts', query), 'contacts');
    out.push(...page.items);
    if (!page.hasMore || !page.cursor) return out;
    cursor = page.cursor;
  }
}

/**
 * Contacts (management.md "Contacts"): search (500 ms, lower-cased), infinite scroll, add/edit,
 * start a ticket, delete (contacts-page:deleteContact), import .xlsx and export CSV; live.
 */
export default function ContactsPage() {
  const { t, i18n } = useTranslation(['contactsPage', 'common']);
  const { user } = useAuth();
  const navigate = useNavigate();
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const { fields: fieldDefs } = useCustomFields('contact');
  // pick a contact field, then a value: the list (and the export) hold the contacts whose field has it
  const [fieldFilter, setFieldFilter] = useState<FieldFilter | null>(null);
  const shownFilter = useDebouncedValue(fieldFilter, DEBOUNCE_MS);
  // a saved segment's contacts (issue 40); the search and the field filter narrow it
  const [segmentId, setSegmentId] = useState<number | null>(null);
  const segmentQuery = segmentId ? { segmentId } : {};
  const segment = useSegments().segments.find((s) => s.id === segmentId);
  // a contact changed elsewhere stays on screen only while it is in the segment (tags are the tickets': unknown here)
  const outOfSegment = (c: Contact) =>
    Boolean(
      segment &&
        !segment.conditions.some((x) => x.type === 'tag') &&
        !contactMatchesSegment(segment, { ...c, customFields: c.customFields }, fieldDefs),
    );
  const contacts = usePagedList<Contact>('/contacts', 'contacts', {
    searchParam: search,
    ...fieldFilterQuery(fieldDefs, shownFilter),
    ...segmentQuery,
  });
  const [modal, setModal] = useState<{ id?: number } | null>(null);
  /** "start a ticket": the New ticket modal with this contact chosen (queue and conflicts handled there) */
  const [ticketFor, setTicketFor] = useState<Contact | null>(null);
  const [busy, setBusy] = useState<'import' | 'export' | 'phone' | 'duplicates' | null>(null);
  const [duplicates, setDuplicates] = useState(false);
  const [result, setResult] = useState<{ created: number; errors: ReturnType<typeof importErrors> } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // on a phone the import and export actions fold into one menu beside the search, and the number and
  // e-mail move under the name: three columns fit 390 px
  const phone = usePhone();
  const [moreAnchor, setMoreAnchor] = useState<HTMLElement | null>(null);
  const mayDelete = can(user?.profile, 'contacts-page:deleteContact');
  // The server names row errors by catalogue code, validation key or `field: key`; show them as text.
  const importMessage = (m: string): string => {
    const field = /^(name|number|email): (\w+)$/.exec(m);
    if (field) return `${t(`columns.${field[1]}`)}: ${importMessage(field[2])}`;
    const custom = /^([a-z][a-z0-9_]*): (\w+)$/.exec(m);
    const def = custom && fieldDefs.find((f) => f.key === custom[1]);
    if (custom && def) return `${def.name}: ${importMessage(custom[2]!)}`;
    if (i18n.exists(`errors:${m}`)) return t(`errors:${m}`);
    return i18n.exists(`common:validation.${m}`) ? t(`common:validation.${m}`) : m;
  };

  useRealtimeEvent<{
    action: string;
    contact?: Contact;
    contactId?: number;
    phoneImport?: { requestId: string; part: number; parts: number; created: number; skipped: number };
  }>('contact', (ev) => {
    const part = ev.phoneImport;
    if (part) {
      // a small address book can be imported before the POST has even answered: keep every request's tally
      const tally = phoneImports.current.get(part.requestId) ?? { created: 0, parts: 0 };
      tally.created += part.created;
      tally.parts += 1;
      phoneImports.current.set(part.requestId, tally);
      if (part.requestId === phoneImport.current && tally.parts === part.parts) phoneImportDone(part.requestId);
      else if (tally.parts === part.parts) tally.done = true;
    }
    // an import announces its contacts once, as a whole
    if (ev.action === 'reload') void contacts.reload();
    else if (ev.action === 'delete' && ev.contactId !== undefined) contacts.remove(Number(ev.contactId));
    else if (
      ev.contact &&
      ((shownFilter && !matchesFieldFilter(fieldDefs, shownFilter, ev.contact)) || outOfSegment(ev.contact))
    )
      contacts.remove(ev.contact.id);
    else if (
      ev.contact &&
      (!search || ev.contact.name.toLowerCase().includes(search) || ev.contact.number.includes(search))
    )
      contacts.upsert(ev.contact);
  });

  // POST /contacts/import: the default connection's phone sends its address book; parts arrive as events
  const phoneImport = useRef<string | null>(null);
  const phoneImports = useRef(new Map<string, { created: number; parts: number; done?: boolean }>());
  const phoneImportNotice = useRef<number | null>(null);
  const phoneImportDone = (requestId: string) => {
    // the outcome replaces the "reading the address book" notice
    if (phoneImportNotice.current !== null) toasts.dismiss(phoneImportNotice.current);
    phoneImportNotice.current = null;
    notify.success(t('phoneImported', { count: phoneImports.current.get(requestId)?.created ?? 0 }));
    phoneImports.current.delete(requestId);
    phoneImport.current = null;
  };
  const importFromPhone = async () => {
    setBusy('phone');
    try {
      const started = await api.post<{ requestId: string }>('/contacts/import', {});
      phoneImport.current = started.requestId;
      if (phoneImports.current.get(started.requestId)?.done) phoneImportDone(started.requestId);
      else phoneImportNotice.current = notify.info(t('phoneImporting'));
    } catch (err) {
      toastError(err);
    } finally {
      // the parts arrive later as events (a second import is harmless: known numbers are skipped)
      setBusy(null);
    }
  };

  const remove = (contact: Contact) =>
    confirmedDelete({
      message: t('confirmDelete', { name: contact.name }),
      path: `/contacts/${contact.id}`,
      onDeleted: () => contacts.remove(contact.id),
      deleted: t('deleted'),
    });

  const importFile = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    setBusy('import');
    try {
      const rows = await readContactsFile(await file.arrayBuffer());
      if (!rows.length) return notify.error(t('importEmpty'));
      notify.info(t('importing', { count: rows.length }));
      const res = await api.post<ImportResult>('/contacts/upload', rows);
      setResult({ created: res.newContacts?.length ?? 0, errors: importErrors(res) });
      void contacts.reload();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const exportCsv = async () => {
    setBusy('export');
    try {
      downloadCsv(
        contactsCsv(await allContacts({ ...fieldFilterQuery(fieldDefs, shownFilter), ...segmentQuery }), fieldDefs),
      );
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const extraActions = [
    { key: 'import', label: t('import'), Icon: UploadIcon, run: () => fileInput.current?.click() },
    ...(user?.profile === 'admin'
      ? [{ key: 'phone', label: t('importPhone'), Icon: WhatsAppIcon, run: () => void importFromPhone() }]
      : []),
    { key: 'export', label: t('export'), Icon: DownloadIcon, run: () => void exportCsv() },
    // suggested duplicates and merging: admins
    ...(user?.profile === 'admin'
      ? [{ key: 'duplicates', label: t('duplicates.open'), Icon: MergeIcon, run: () => setDuplicates(true) }]
      : []),
  ] as const;

  return (
    <PageFrame
      title={t('title')}
      onScroll={contacts.onScroll}
      actions={
        <ListToolbar
          searchLabel={t('search')}
          search={text}
          onSearch={setText}
          addLabel={t('add')}
          onAdd={() => setModal({})}
        >
          <SegmentPicker value={segmentId} onChange={setSegmentId} admin={user?.profile === 'admin'} />
          <ContactFieldFilter fields={fieldDefs} value={fieldFilter} onChange={setFieldFilter} />
          <input
            ref={fileInput}
            type="file"
            hidden
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-label={t('import')}
            onChange={(e) => void importFile(e.target.files?.[0])}
          />
          {phone ? (
            <>
              <IconButton
                aria-label={t('more')}
                aria-haspopup="menu"
                disabled={busy !== null}
                onClick={(e) => setMoreAnchor(e.currentTarget)}
              >
                {busy ? <CircularProgress size={20} /> : <MoreVertIcon />}
              </IconButton>
              <Menu anchorEl={moreAnchor} open={Boolean(moreAnchor)} onClose={() => setMoreAnchor(null)}>
                {extraActions.map(({ key, label, Icon, run }) => (
                  <MenuItem
                    key={key}
                    onClick={() => {
                      setMoreAnchor(null);
                      run();
                    }}
                  >
                    <ListItemIcon>
                      <Icon fontSize="small" />
                    </ListItemIcon>
                    {label}
                  </MenuItem>
                ))}
              </Menu>
            </>
          ) : (
            extraActions.map(({ key, label, Icon, run }) => (
              <Button
                key={key}
                variant="outlined"
                startIcon={busy === key ? <CircularProgress size={16} /> : <Icon />}
                disabled={busy !== null}
                onClick={run}
              >
                {label}
              </Button>
            ))
          )}
        </ListToolbar>
      }
    >
      <Table
        size="small"
        stickyHeader
        aria-label={t('title')}
        sx={{ '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}
      >
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: { xs: 32, sm: 56 } }} />
            <TableCell>{t('columns.name')}</TableCell>
            {!phone && <TableCell>{t('columns.number')}</TableCell>}
            {!phone && <TableCell>{t('columns.email')}</TableCell>}
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {contacts.items.map((c) => (
            <TableRow key={c.id} hover>
              <TableCell>
                <Avatar src={c.profilePicUrl ?? undefined} alt="" sx={{ width: 32, height: 32 }}>
                  {c.name?.[0]?.toUpperCase()}
                </Avatar>
              </TableCell>
              {phone ? (
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {c.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {shownNumber(c.number, t)}
                  </Typography>
                  {c.email && (
                    <Typography variant="body2" color="text.secondary">
                      {c.email}
                    </Typography>
                  )}
                </TableCell>
              ) : (
                <>
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{shownNumber(c.number, t)}</TableCell>
                  <TableCell>{c.email}</TableCell>
                </>
              )}
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('startTicket', { name: c.name })}
                  onClick={() => setTicketFor(c)}
                >
                  <WhatsAppIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: c.name })}
                  onClick={() => setModal({ id: c.id })}
                >
                  <EditIcon />
                </IconButton>
                {mayDelete && (
                  <IconButton size="small" aria-label={t('delete', { name: c.name })} onClick={() => void remove(c)}>
                    <DeleteIcon />
                  </IconButton>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {contacts.hasMore && (
        <Stack sx={{ alignItems: 'center', py: 1 }}>
          <CircularProgress size={20} />
        </Stack>
      )}
      {!contacts.isLoading && contacts.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <ContactModal
        open={modal !== null}
        contactId={modal?.id}
        onClose={() => setModal(null)}
        onSaved={(c) => contacts.upsert(c)}
      />
      <DuplicatesDialog open={duplicates} onClose={() => setDuplicates(false)} />
      <NewTicketModal
        open={ticketFor !== null}
        initialContact={ticketFor}
        onClose={() => setTicketFor(null)}
        onCreated={(ticket) => void navigate(`/tickets/${ticket.uuid}`)}
      />
      <Dialog
        open={result !== null}
        onClose={() => setResult(null)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="import-result-title"
      >
        <DialogTitle id="import-result-title">{t('importTitle')}</DialogTitle>
        <DialogContent>
          <Alert severity="success" sx={{ mb: 1 }}>
            {t('importCreated', { count: result?.created ?? 0 })}
          </Alert>
          {result && result.errors.length > 0 && (
            <>
              <Alert severity="warning">{t('importFailed', { count: result.errors.length })}</Alert>
              <List dense aria-label={t('importErrors')}>
                {result.errors.map((e, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: import errors have no id and may repeat (same name and message); the list is shown once, never reordered
                  <ListItem key={i} divider>
                    <ListItemText
                      primary={e.contactName || t('noName')}
                      secondary={
                        e.line
                          ? t('importLine', { line: e.line, message: importMessage(e.message) })
                          : importMessage(e.message)
                      }
                    />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setResult(null)}>{t('common:buttons.close')}</Button>
        </DialogActions>
      </Dialog>
    </PageFrame>
  );
}
