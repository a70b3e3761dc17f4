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
  Tooltip,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS, RECURRENCE_MONTHS } from '#shared/constants';
import type { CompanyRow } from '#shared/schemas/billing';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';
import { ListToolbar } from '../components/ListToolbar';
import { notify } from '../components/toast';
import { searchParam } from '../components/SearchField';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { useDebouncedValue } from '../lib/debounce';
import { formatDate } from '../lib/format';
import { usePagedList } from '../lib/usePagedList';
import { CompanyModal } from './CompanyModal';
import { dueRow } from './due-rows';

/**
 * The super user's companies (management.md "Settings page", 4, 7): search, the due-date row
 * colours, create/edit (with the "Expire" button and business hours) and delete.
 */
export function CompaniesTab() {
  const { t } = useTranslation(['settings', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const confirm = useConfirm();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const companies = usePagedList<CompanyRow>('/companies', 'companies', { searchParam: search });
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  const remove = (c: CompanyRow) =>
    confirmedDelete({
      message: t('companies.confirmDelete', { name: c.name }),
      path: `/companies/${c.id}`,
      onDeleted: () => companies.remove(c.id),
      deleted: t('companies.deleted'),
    });

  // "Expire" (management.md 4): the server moves the due date by the company's recurrence.
  const expire = async (c: CompanyRow) => {
    const months = RECURRENCE_MONTHS[c.recurrence];
    if (!(await confirm({ message: t('companies.confirmExpire', { name: c.name, count: months }) }))) return;
    try {
      companies.upsert(await api.post<CompanyRow>(`/companies/${c.id}/expire`));
      notify.success(t('companies.expired'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <Box sx={{ display: 'flex', gap: 1, p: 2, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        <ListToolbar
          searchLabel={t('companies.search')}
          search={text}
          onSearch={setText}
          addLabel={t('companies.add')}
          onAdd={() => setModal({})}
        />
      </Box>
      <Box sx={{ flex: 1, overflow: 'auto' }} onScroll={companies.onScroll} data-testid="companies-scroll">
        <Table size="small" stickyHeader aria-label={t('tabs.companies')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('companies.columns.name')}</TableCell>
              <TableCell>{t('companies.columns.email')}</TableCell>
              <TableCell>{t('companies.columns.plan')}</TableCell>
              <TableCell align="center">{t('companies.columns.campaigns')}</TableCell>
              <TableCell align="center">{t('companies.columns.status')}</TableCell>
              <TableCell align="center">{t('companies.columns.createdAt')}</TableCell>
              <TableCell align="center">{t('companies.columns.dueDate')}</TableCell>
              <TableCell align="center">{t('companies.columns.recurrence')}</TableCell>
              <TableCell align="center">{t('companies.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {companies.items.map((c) => {
              const { colour, background } = dueRow(c.dueDate);
              return (
                <TableRow
                  key={c.id}
                  hover={!colour}
                  data-due={colour ?? 'none'}
                  sx={background ? { bgcolor: background, '& td': { color: 'rgba(0,0,0,0.87)' } } : {}}
                >
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.email}</TableCell>
                  <TableCell>{c.plan?.name ?? '—'}</TableCell>
                  <TableCell align="center">
                    {c.campaignsEnabled ? t('companies.enabled') : t('companies.disabled')}
                  </TableCell>
                  <TableCell align="center">
                    <Chip
                      size="small"
                      color={c.status ? 'success' : 'default'}
                      label={c.status ? t('companies.active') : t('companies.inactive')}
                    />
                  </TableCell>
                  <TableCell align="center">{formatDate(c.createdAt)}</TableCell>
                  <TableCell align="center">{formatDate(c.dueDate)}</TableCell>
                  <TableCell align="center">{t(`companies.recurrences.${c.recurrence}`)}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('companies.expireHint', { count: RECURRENCE_MONTHS[c.recurrence] })}>
                      <Button
                        size="small"
                        variant="outlined"
                        aria-label={t('companies.expireName', { name: c.name })}
                        onClick={() => void expire(c)}
                        sx={{ mr: 0.5 }}
                      >
                        {t('companies.expire')}
                      </Button>
                    </Tooltip>
                    <IconButton
                      size="small"
                      aria-label={t('companies.edit', { name: c.name })}
                      onClick={() => setModal({ id: c.id })}
                    >
                      <EditIcon />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('companies.delete', { name: c.name })}
                      onClick={() => void remove(c)}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {!companies.isLoading && companies.items.length === 0 && (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <Typography color="text.secondary">{t('companies.empty')}</Typography>
          </Box>
        )}
      </Box>
      <CompanyModal
        open={modal !== null}
        companyId={modal?.id}
        onClose={() => setModal(null)}
        onSaved={companies.upsert}
      />
    </Box>
  );
}
