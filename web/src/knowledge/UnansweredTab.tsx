import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import NoteAddIcon from '@mui/icons-material/NoteAddOutlined';
import { useTranslation } from 'react-i18next';
import type { KnowledgeArticle, UnansweredQuestion } from '#shared/schemas/knowledge';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';
import { notify } from '../components/toast';
import { formatDateTime } from '../lib/format';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';

interface QuestionEvent {
  action: 'create' | 'update' | 'delete';
  question?: UnansweredQuestion;
  questionId?: string;
}

/**
 * The questions the AI agent handed to people (issue 39 item 4), newest first: each can become a
 * draft article in one click (its body is what the attendant answered after the hand-off) or be
 * dismissed. `onOpenArticle` opens a draft in the knowledge page's editor.
 */
export function UnansweredTab({ onOpenArticle }: { onOpenArticle?: (articleId: number) => void }) {
  const { t } = useTranslation('knowledgeLearn');
  const confirm = useConfirm();
  const list = usePagedList<UnansweredQuestion>('/knowledge/unanswered', 'questions');
  const [busy, setBusy] = useState<string | null>(null);

  useRealtimeEvent<QuestionEvent>('knowledgeUnanswered', (ev) => {
    if (ev.action === 'delete' && ev.questionId) list.remove(ev.questionId);
    else if (ev.question) list.upsert(ev.question);
  });

  const draft = async (q: UnansweredQuestion) => {
    setBusy(q.id);
    try {
      const article = await api.post<KnowledgeArticle>(`/knowledge/unanswered/${encodeURIComponent(q.id)}/draft`);
      list.upsert({ ...q, articleId: article.id });
      notify.success(t('unanswered.drafted', { id: article.id }));
      onOpenArticle?.(article.id);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const dismiss = async (q: UnansweredQuestion) => {
    if (!(await confirm({ message: t('unanswered.confirmDismiss') }))) return;
    setBusy(q.id);
    try {
      await api.delete(`/knowledge/unanswered/${encodeURIComponent(q.id)}`);
      list.remove(q.id);
      notify.info(t('unanswered.dismissed'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, minHeight: 0, height: '100%' }}>
      <Typography variant="body2" color="text.secondary">
        {t('unanswered.hint')}
      </Typography>
      <TableContainer sx={{ flex: 1, minHeight: 0 }} onScroll={list.onScroll}>
        <Table size="small" stickyHeader aria-label={t('unanswered.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('unanswered.question')}</TableCell>
              <TableCell>{t('unanswered.ticket')}</TableCell>
              <TableCell>{t('unanswered.reason')}</TableCell>
              <TableCell>{t('unanswered.when')}</TableCell>
              <TableCell align="right">{t('unanswered.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((q) => (
              <TableRow key={q.id} hover>
                <TableCell sx={{ maxWidth: 420, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {q.question}
                </TableCell>
                <TableCell>#{q.ticketId}</TableCell>
                <TableCell>
                  <Chip size="small" variant="outlined" label={t(`reasons.${q.reason}`)} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(q.createdAt)}</TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
                    {q.articleId ? (
                      <Button
                        size="small"
                        onClick={() => onOpenArticle?.(q.articleId!)}
                        disabled={!onOpenArticle}
                        aria-label={t('unanswered.openDraft', { id: q.articleId })}
                      >
                        {t('unanswered.openDraft', { id: q.articleId })}
                      </Button>
                    ) : (
                      <Button
                        size="small"
                        variant="outlined"
                        startIcon={<NoteAddIcon />}
                        disabled={busy === q.id}
                        onClick={() => void draft(q)}
                        aria-label={t('unanswered.draftOf', { question: q.question.slice(0, 60) })}
                      >
                        {t('unanswered.draft')}
                      </Button>
                    )}
                    <IconButton
                      size="small"
                      disabled={busy === q.id}
                      aria-label={t('unanswered.dismissOf', { question: q.question.slice(0, 60) })}
                      onClick={() => void dismiss(q)}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {!list.isLoading && list.items.length === 0 && (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <Typography color="text.secondary">{t('unanswered.empty')}</Typography>
          </Box>
        )}
      </TableContainer>
    </Box>
  );
}
