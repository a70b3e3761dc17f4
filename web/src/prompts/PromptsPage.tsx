import { useState } from 'react';
import { Box, Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { Prompt, PromptDeleted, PromptsResponse } from '#shared/schemas/prompts';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';
import { FeatureGate } from '../components/FeatureGate';
import { PageFrame } from '../components/PageFrame';
import { notify } from '../components/toast';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { PromptModal } from './PromptModal';

function Prompts() {
  const { t } = useTranslation(['prompts', 'common']);
  const confirm = useConfirm();
  const { data, mutate, isLoading } = useApi<PromptsResponse>('/prompt');
  const prompts = data?.prompts ?? [];
  const [modal, setModal] = useState<{ id?: number } | null>(null);

  useRealtimeEvent('prompt', () => void mutate());

  const remove = async (p: Prompt) => {
    if (!(await confirm({ message: t('confirmDelete', { name: p.name }) }))) return;
    try {
      const res = await api.delete<PromptDeleted | undefined>(`/prompt/${p.id}`);
      // section 8: the server's message, as an info toast
      notify.info(res?.message ?? t('deleted'));
      void mutate((d) => d && { ...d, prompts: d.prompts.filter((x) => x.id !== p.id) }, { revalidate: false });
    } catch (err) {
      toastError(err);
    }
  };

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
            <TableCell>{t('columns.name')}</TableCell>
            <TableCell align="center">{t('columns.queue')}</TableCell>
            <TableCell align="center">{t('columns.maxTokens')}</TableCell>
            <TableCell align="center">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {prompts.map((p) => (
            <TableRow key={p.id} hover>
              <TableCell>{p.name}</TableCell>
              <TableCell align="center">{p.queue?.name ?? '-'}</TableCell>
              <TableCell align="center">{p.maxTokens}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <IconButton
                  size="small"
                  aria-label={t('edit', { name: p.name })}
                  onClick={() => setModal({ id: p.id })}
                >
                  <EditIcon />
                </IconButton>
                <IconButton size="small" aria-label={t('delete', { name: p.name })} onClick={() => void remove(p)}>
                  <DeleteIcon />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!isLoading && prompts.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('empty')}</Typography>
        </Box>
      )}
      <PromptModal
        open={modal !== null}
        promptId={modal?.id}
        onClose={() => setModal(null)}
        onSaved={() => void mutate()}
      />
    </PageFrame>
  );
}

/** AI prompts (management.md "AI prompts"), behind the plan flag useOpenAi. */
export default function PromptsPage() {
  const { t } = useTranslation('prompts');
  return (
    <FeatureGate feature="useOpenAi" message={t('denied')}>
      <Prompts />
    </FeatureGate>
  );
}
