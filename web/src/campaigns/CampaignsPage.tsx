import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
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
import VisibilityIcon from '@mui/icons-material/Visibility';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import AssessmentIcon from '@mui/icons-material/Assessment';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { Campaign } from '#shared/schemas/campaigns';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useDebouncedValue } from '../lib/debounce';
import { formatDateTime } from '../lib/format';
import { usePagedList } from '../lib/usePagedList';
import { useApi } from '../api/swr';
import { asList } from '../realtime/cache';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { CampaignModal } from './CampaignModal';
import { STATUS_COLOR, canDelete, isEditable } from './campaign-rules';

/**
 * Campaigns (management.md "Campaigns"): name, status, contact list, connection, scheduledAt,
 * completedAt and actions; live through the `campaign` event. A paused campaign shows the
 * limiter's reason on its status.
 */
export default function CampaignsPage() {
  const { t } = useTranslation(['campaigns', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<Campaign>('/campaigns', 'records', { searchParam: search });
  const [modal, setModal] = useState<{ campaign: Campaign | null } | null>(null);
  const { data: tagData } = useApi<unknown>('/tags/list');
  const tagName = (id: number) => asList<{ id: number; name: string }>(tagData, 'tags').find((x) => x.id === id)?.name;

  useRealtimeEvent<{ action: string; record?: Campaign; id?: number }>('campaign', (ev) => {
    if (ev.action === 'delete' && ev.id !== undefined) list.remove(Number(ev.id));
    else if (ev.record) {
      const record = ev.record;
      if (!search || record.name.toLowerCase().includes(search)) list.upsert(record);
      setModal((m) => (m?.campaign?.id === record.id ? { campaign: { ...m.campaign, ...record } } : m));
    }
  });

  const remove = (c: Campaign) =>
    confirmedDelete({
      message: t('confirmDelete', { name: c.name }),
      path: `/campaigns/${c.id}`,
      onDeleted: () => list.remove(c.id),
      deleted: t('deleted'),
    });

  const audience = (c: Campaign) =>
    c.contactList?.name ?? (c.tagId ? t('tagAudience', { name: tagName(c.tagId) ?? `#${c.tagId}` }) : t('noAudience'));
  const statusTitle = (c: Campaign) =>
    c.status === 'PAUSADA'
      ? t(`pauseReason.${c.pauseReason ?? 'failures'}`)
      : c.status === 'EM_ANDAMENTO' && c.waitReason
        ? t(`waitReason.${c.waitReason}`, { date: formatDateTime(c.resumeAt ?? null) })
        : '';

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
          onAdd={() => setModal({ campaign: null })}
        />
      }
    >
      <Table size="small" stickyHeader aria-label={t('title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.status')}</TableCell>
            <TableCell>{t('columns.contactList')}</TableCell>
            <TableCell>{t('columns.whatsapp')}</TableCell>
            <TableCell align="center">{t('columns.scheduledAt')}</TableCell>
            <TableCell align="center">{t('columns.completedAt')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((c) => (
            <TableRow key={c.id} hover data-testid={`campaign-${c.id}`}>
              <TableCell>{c.name}</TableCell>
              <TableCell align="center">
                <Tooltip title={statusTitle(c)}>
                  <Chip
                    size="small"
                    color={STATUS_COLOR[c.status]}
                    variant={c.waitReason && c.status === 'EM_ANDAMENTO' ? 'outlined' : 'filled'}
                    label={t(`status.${c.status}`)}
                    aria-description={statusTitle(c) || undefined}
                  />
                </Tooltip>
              </TableCell>
              <TableCell>{audience(c)}</TableCell>
              <TableCell>{c.whatsapp?.name ?? ''}</TableCell>
              <TableCell align="center">{formatDateTime(c.scheduledAt)}</TableCell>
              <TableCell align="center">{formatDateTime(c.completedAt)}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('report', { name: c.name })}
                  component={RouterLink}
                  to={`/campaign/${c.id}/report`}
                >
                  <AssessmentIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: c.name })}
                  onClick={() => setModal({ campaign: c })}
                >
                  {isEditable(c) ? <EditIcon /> : <VisibilityIcon />}
                </IconButton>
                {canDelete(c.status) && (
                  <IconButton size="small" aria-label={t('delete', { name: c.name })} onClick={() => void remove(c)}>
                    <DeleteIcon />
                  </IconButton>
                )}
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
      <CampaignModal
        open={modal !== null}
        campaign={modal?.campaign ?? null}
        onClose={() => setModal(null)}
        onSaved={list.upsert}
      />
    </PageFrame>
  );
}
