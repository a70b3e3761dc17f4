import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  IconButton,
  Paper,
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
import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import type { KnowledgeRow } from '#shared/schemas/knowledge';
import { SearchField } from '../components/SearchField';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { useDebouncedValue } from '../lib/debounce';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { ArticleDialog, type ArticleDialogTarget } from './ArticleDialog';
import { rowMatches } from './knowledge-form';
import { TryIt } from './TryIt';

/**
 * The articles and documents of the knowledge base: searched by title or tag, newest first, more
 * rows near the bottom; live through the `knowledge` event; the "try it" box beside them.
 */
export function ArticlesTab() {
  const { t } = useTranslation(['knowledge', 'common']);
  const confirmedDelete = useConfirmedDelete();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), DEBOUNCE_MS);
  const list = usePagedList<KnowledgeRow>('/knowledge', 'articles', { searchParam: search || undefined });
  // `?edit=<id>`: an article opened from elsewhere (a draft made from an unanswered question)
  const [params, setParams] = useSearchParams();
  const editId = Number(params.get('edit'));
  const [dialog, setDialog] = useState<ArticleDialogTarget | null>(editId > 0 ? { kind: 'article', id: editId } : null);
  const close = () => {
    setDialog(null);
    if (params.has('edit')) setParams({});
  };

  useRealtimeEvent<{ action: string; articleId: number; article?: KnowledgeRow }>('knowledge', (ev) => {
    if (ev.action === 'delete') list.remove(ev.articleId);
    else if (ev.article && rowMatches(ev.article, search)) list.upsert(ev.article);
  });

  const remove = (a: KnowledgeRow) =>
    confirmedDelete({
      message: t('confirmDelete', { title: a.title }),
      path: `/knowledge/${a.id}`,
      onDeleted: () => list.remove(a.id),
      deleted: t('deleted'),
    });

  return (
    <>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1 }}
      >
        <SearchField label={t('search')} value={text} onChange={setText} />
        <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setDialog({ kind: 'document' })}>
          {t('addDocument')}
        </Button>
        <Button variant="contained" onClick={() => setDialog({ kind: 'article' })}>
          {t('addArticle')}
        </Button>
      </Stack>
      <Stack direction={{ xs: 'column', xl: 'row' }} spacing={2} sx={{ flex: 1, minHeight: 0 }}>
        <Paper
          variant="outlined"
          sx={{ flex: 1, minWidth: 0, minHeight: 240, overflow: 'auto' }}
          onScroll={list.onScroll}
          data-testid="page-scroll"
        >
          <Table size="small" stickyHeader aria-label={t('tabs.articles')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('columns.title')}</TableCell>
                <TableCell>{t('columns.kind')}</TableCell>
                <TableCell>{t('columns.status')}</TableCell>
                <TableCell align="right">{t('columns.passages')}</TableCell>
                <TableCell align="center">{t('columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.items.map((a) => (
                <TableRow key={a.id} hover>
                  <TableCell sx={{ maxWidth: 320 }}>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {a.title}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="div">
                      {a.excerpt}
                    </Typography>
                    {a.tags.length > 0 && (
                      <Stack direction="row" sx={{ gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
                        {a.tags.map((tag) => (
                          <Chip key={tag} label={tag} size="small" variant="outlined" />
                        ))}
                      </Stack>
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {t(`kind.${a.kind}`)}
                    <Typography variant="caption" color="text.secondary" component="div" noWrap sx={{ maxWidth: 160 }}>
                      {[t(`languages.${a.language}`), a.fileName].filter(Boolean).join(' · ')}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={t(`status.${a.status}`)}
                      color={a.status === 'published' ? 'success' : 'default'}
                      variant={a.status === 'published' ? 'filled' : 'outlined'}
                    />
                  </TableCell>
                  <TableCell align="right">{a.passages}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      size="small"
                      aria-label={t('edit', { title: a.title })}
                      onClick={() => setDialog({ kind: a.kind, id: a.id })}
                    >
                      <EditIcon />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('delete', { title: a.title })}
                      onClick={() => void remove(a)}
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
              <Typography color="text.secondary">{t('empty')}</Typography>
            </Box>
          )}
        </Paper>
        <TryIt />
      </Stack>
      <ArticleDialog target={dialog} onClose={close} onSaved={() => void list.reload()} />
    </>
  );
}
