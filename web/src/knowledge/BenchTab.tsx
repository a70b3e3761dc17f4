import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useTranslation } from 'react-i18next';
import { KNOWLEDGE_BENCH_MAX, type KnowledgeBenchRow } from '#shared/schemas/knowledge';
import type { PromptsResponse } from '#shared/schemas/prompts';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';

const COUNTS = [5, 10, KNOWLEDGE_BENCH_MAX] as const;

/**
 * The agent's test bench (issue 39 item 4): the customer's first message of the last N closed
 * tickets replayed through a prompt's agent, which sends and stores nothing; per message the answer,
 * the passages it used and whether it would hand off, and why.
 */
export function BenchTab() {
  const { t } = useTranslation('knowledgeLearn');
  const { data } = useApi<PromptsResponse>('/prompt');
  const prompts = data?.prompts ?? [];
  const [promptId, setPromptId] = useState<number | ''>('');
  const [tickets, setTickets] = useState<number>(10);
  const [rows, setRows] = useState<KnowledgeBenchRow[] | null>(null);
  const [running, setRunning] = useState(false);
  const chosen = promptId === '' ? prompts[0]?.id : promptId;

  const run = async () => {
    if (!chosen) return;
    setRunning(true);
    try {
      setRows(await api.post<KnowledgeBenchRow[]>('/knowledge/test-bench', { promptId: chosen, tickets }));
    } catch (err) {
      toastError(err);
    } finally {
      setRunning(false);
    }
  };
  const answered = rows?.filter((r) => !r.handOff).length ?? 0;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0, height: '100%' }}>
      <Typography variant="body2" color="text.secondary">
        {t('bench.hint')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label={t('bench.prompt')}
          value={chosen ?? ''}
          onChange={(e) => setPromptId(Number(e.target.value))}
          sx={{ minWidth: 240 }}
        >
          {prompts.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('bench.tickets')}
          value={tickets}
          onChange={(e) => setTickets(Number(e.target.value))}
          sx={{ minWidth: 180 }}
        >
          {COUNTS.map((n) => (
            <MenuItem key={n} value={n}>
              {n}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          startIcon={<PlayArrowIcon />}
          disabled={!chosen || running}
          onClick={() => void run()}
        >
          {running ? t('bench.running') : t('bench.run')}
        </Button>
        {rows && rows.length > 0 && (
          <Typography variant="body2" role="status">
            {t('bench.summary', { answered, total: rows.length })}
          </Typography>
        )}
      </Stack>
      {rows && (
        <TableContainer sx={{ flex: 1, minHeight: 0 }}>
          <Table size="small" stickyHeader aria-label={t('bench.resultsLabel')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('bench.ticket')}</TableCell>
                <TableCell>{t('bench.question')}</TableCell>
                <TableCell>{t('bench.answer')}</TableCell>
                <TableCell>{t('bench.passages')}</TableCell>
                <TableCell>{t('bench.outcome')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.ticketId} sx={{ verticalAlign: 'top' }}>
                  <TableCell>#{r.ticketId}</TableCell>
                  <TableCell sx={{ maxWidth: 260, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {r.question}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {r.answer ?? (
                      <Typography variant="body2" color="text.secondary" component="span">
                        {t('bench.noAnswer')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 320 }}>
                    {r.passages.length === 0
                      ? t('bench.noPassages')
                      : r.passages.map((p) => (
                          <Box key={`${p.articleId}:${p.text}`} sx={{ mb: 1 }}>
                            <Typography variant="subtitle2" component="p">
                              {p.title}
                            </Typography>
                            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
                              {p.text.length > 240 ? `${p.text.slice(0, 239)}…` : p.text}
                            </Typography>
                          </Box>
                        ))}
                  </TableCell>
                  <TableCell>
                    <Stack spacing={0.5}>
                      <Chip
                        size="small"
                        color={r.handOff ? 'warning' : 'success'}
                        label={r.handOff ? t('bench.handsOff') : t('bench.answers')}
                      />
                      {r.reason && (
                        <Typography variant="caption" color="text.secondary">
                          {t(`reasons.${r.reason}`)}
                        </Typography>
                      )}
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {rows.length === 0 && (
            <Box sx={{ p: 3, textAlign: 'center' }}>
              <Typography color="text.secondary">{t('bench.empty')}</Typography>
            </Box>
          )}
        </TableContainer>
      )}
    </Box>
  );
}
