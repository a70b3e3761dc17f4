import { useState } from 'react';
import { Box, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import WebhookIcon from '@mui/icons-material/Webhook';
import ForumIcon from '@mui/icons-material/Forum';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { IntegrationType, QueueIntegration } from '#shared/schemas/integrations';
import { FeatureGate } from '../components/FeatureGate';
import { ListToolbar } from '../components/ListToolbar';
import { PageFrame } from '../components/PageFrame';
import { searchParam } from '../components/SearchField';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { IntegrationModal } from './IntegrationModal';

const TYPE_ICON: Record<IntegrationType, typeof SmartToyIcon> = {
  dialogflow: SmartToyIcon,
  n8n: AccountTreeIcon,
  webhook: WebhookIcon,
  typebot: ForumIcon,
};

function Integrations() {
  const { t } = useTranslation(['integrations', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(searchParam(text), DEBOUNCE_MS);
  const list = usePagedList<QueueIntegration>('/queueIntegration', 'queueIntegrations', { searchParam: search });
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  useRealtimeEvent('queueIntegration', () => void list.reload());

  const remove = (i: QueueIntegration) =>
    confirmedDelete({
      message: t('confirmDelete', { name: i.name }),
      path: `/queueIntegration/${i.id}`,
      onDeleted: () => list.remove(i.id),
      deleted: t('deleted'),
    });

  return (
    <PageFrame
      title={t('title', { count: list.items.length })}
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
      <Table size="small" stickyHeader aria-label={t('title', { count: list.items.length })}>
        <TableHead>
          <TableRow>
            <TableCell align="center" sx={{ width: 64 }}>
              {t('columns.type')}
            </TableCell>
            <TableCell align="center">{t('columns.id')}</TableCell>
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((i) => {
            const Icon = TYPE_ICON[i.type] ?? SmartToyIcon;
            return (
              <TableRow key={i.id} hover>
                <TableCell align="center">
                  <Tooltip title={t(`types.${i.type}`)}>
                    <Icon color="primary" aria-label={t(`types.${i.type}`)} />
                  </Tooltip>
                </TableCell>
                <TableCell align="center">{i.id}</TableCell>
                <TableCell>{i.name}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton
                    size="small"
                    aria-label={t('edit', { name: i.name })}
                    onClick={() => setModal({ id: i.id })}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton size="small" aria-label={t('delete', { name: i.name })} onClick={() => void remove(i)}>
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {!list.isLoading && list.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <IntegrationModal
        open={modal !== null}
        integrationId={modal?.id}
        onClose={() => setModal(null)}
        onSaved={list.upsert}
      />
    </PageFrame>
  );
}

/** Queue integrations (management.md "Queue integrations"), behind the plan flag useIntegrations. */
export default function IntegrationsPage() {
  const { t } = useTranslation('integrations');
  return (
    <FeatureGate feature="useIntegrations" message={t('denied')}>
      <Integrations />
    </FeatureGate>
  );
}
