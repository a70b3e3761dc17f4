import { useState, type FormEvent } from 'react';
import { Box, Button, Divider, Paper, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { KnowledgeSearchResponse, RetrievedPassage } from '#shared/schemas/knowledge';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';

/**
 * "Try it": a question as a customer would write it, and the passages retrieval gives the AI agent
 * for it (`POST /knowledge/search`), best first, with the article each comes from.
 */
export function TryIt() {
  const { t } = useTranslation('knowledge');
  const [question, setQuestion] = useState('');
  const [passages, setPassages] = useState<RetrievedPassage[] | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!question.trim()) return;
    setBusy(true);
    try {
      setPassages((await api.post<KnowledgeSearchResponse>('/knowledge/search', { question })).passages);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="knowledge-try-it"
      sx={{ flex: 1, p: 2, minWidth: 280, overflow: 'auto', minHeight: 200 }}
    >
      <Typography id="knowledge-try-it" variant="subtitle1" component="h2" sx={{ fontWeight: 500 }}>
        {t('tryIt.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('tryIt.hint')}
      </Typography>
      <Stack component="form" onSubmit={submit} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label={t('tryIt.question')}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          multiline
          maxRows={4}
          fullWidth
        />
        <Button type="submit" variant="contained" disabled={busy || !question.trim()}>
          {t('tryIt.submit')}
        </Button>
      </Stack>
      {passages && (
        <Box component="ol" aria-label={t('tryIt.results')} sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
          {passages.length === 0 && (
            <Typography component="li" variant="body2" color="text.secondary">
              {t('tryIt.nothing')}
            </Typography>
          )}
          {passages.map((p, i) => (
            <Box component="li" key={`${p.articleId}-${p.n}`}>
              {i > 0 && <Divider sx={{ my: 1 }} />}
              <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {p.title}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                  {t('tryIt.score', { score: p.score.toFixed(2) })}
                </Typography>
              </Stack>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
                {p.text}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
