import { useEffect, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { TICKET_STATUSES } from '#shared/constants';
import type { SearchResult } from '#shared/schemas/search';
import { useApi, type QueryParams } from '../api/swr';
import { toastError } from '../api/toast-error';
import { PageFrame } from '../components/PageFrame';
import { formatDateTime } from '../lib/format';
import { usePagedList } from '../lib/usePagedList';
import { asList } from '../realtime/cache';
import { segments, snippet, type Range } from './highlight';
import { shownNumber } from '../contacts/contact-number';

interface Option {
  id: number;
  name: string;
}
const ALL = '';
const TYPING_PAUSE_MS = 300;

/** Marked words of a text as <mark>. */
function Marked({ text, ranges }: { text: string; ranges: Range[] }) {
  let at = 0;
  return (
    <>
      {segments(text, ranges).map((s) => {
        const key = at;
        at += s.text.length;
        return s.mark ? (
          <Box
            key={key}
            component="mark"
            sx={{ bgcolor: 'warning.light', color: 'inherit', borderRadius: 0.5, px: 0.25 }}
          >
            {s.text}
          </Box>
        ) : (
          <span key={key}>{s.text}</span>
        );
      })}
    </>
  );
}

function Filter({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  options: { value: string; label: string }[];
}) {
  const { t } = useTranslation('search');
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      sx={{ minWidth: 150 }}
    >
      <MenuItem value={ALL}>{t('filters.all')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * Search over the company's messages and internal notes (issue 27): words as typed (accents and
 * case ignored, the last word a prefix, "phrases"), filters, the newest matches first with the
 * matched words marked; a hit opens its ticket at that message.
 */
export default function SearchPage() {
  const { t } = useTranslation('search');
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [status, setStatus] = useState(ALL);
  const [queueId, setQueueId] = useState(ALL);
  const [userId, setUserId] = useState(ALL);
  const [whatsappId, setWhatsappId] = useState(ALL);
  const [tagId, setTagId] = useState(ALL);
  const [kind, setKind] = useState(ALL);

  // the request follows the typing once it pauses
  useEffect(() => {
    const timer = setTimeout(() => setQ(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const searching = q.trim().length > 0;
  const query = useMemo<QueryParams>(
    () => ({ q, from, to, status, queueId, userId, whatsappId, tagId, kind }),
    [q, from, to, status, queueId, userId, whatsappId, tagId, kind],
  );
  const results = usePagedList<SearchResult>(searching ? '/search' : null, 'results', query);
  useEffect(() => {
    if (results.error) toastError(results.error);
  }, [results.error]);

  const queues = asList<Option>(useApi<unknown>('/queue').data, 'queues');
  const connections = asList<Option>(useApi<unknown>('/whatsapp').data, 'whatsapps');
  const users = asList<Option>(useApi<unknown>('/users/list').data, 'users');
  const tags = asList<Option>(useApi<unknown>('/tags/list').data, 'tags');
  const options = (list: Option[]) => list.map((o) => ({ value: String(o.id), label: o.name }));
  const filtered = Boolean(from || to || status || queueId || userId || whatsappId || tagId || kind);
  const clear = () => {
    setFrom('');
    setTo('');
    setStatus(ALL);
    setQueueId(ALL);
    setUserId(ALL);
    setWhatsappId(ALL);
    setTagId(ALL);
    setKind(ALL);
  };

  const open = (hit: SearchResult) => {
    const at = hit.kind === 'message' ? `?message=${encodeURIComponent(hit.id)}` : '';
    void navigate(`/tickets/${hit.ticket.uuid}${at}`);
  };

  return (
    <PageFrame title={t('title')} onScroll={results.onScroll}>
      <Stack spacing={1.5} sx={{ px: 2, pt: 2 }}>
        <TextField
          label={t('query')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          helperText={t('hint')}
          autoFocus
          slotProps={{ htmlInput: { maxLength: 200, 'aria-label': t('query') } }}
        />
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <TextField
            type="date"
            size="small"
            label={t('filters.from')}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: to || undefined } }}
          />
          <TextField
            type="date"
            size="small"
            label={t('filters.to')}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: from || undefined } }}
          />
          <Filter
            label={t('filters.status')}
            value={status}
            onChange={setStatus}
            options={TICKET_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
          <Filter label={t('filters.queue')} value={queueId} onChange={setQueueId} options={options(queues)} />
          <Filter label={t('filters.user')} value={userId} onChange={setUserId} options={options(users)} />
          <Filter
            label={t('filters.connection')}
            value={whatsappId}
            onChange={setWhatsappId}
            options={options(connections)}
          />
          <Filter label={t('filters.tag')} value={tagId} onChange={setTagId} options={options(tags)} />
          <Filter
            label={t('filters.kind')}
            value={kind}
            onChange={setKind}
            options={(['message', 'note'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          />
          {filtered && <Button onClick={clear}>{t('filters.clear')}</Button>}
        </Stack>
      </Stack>
      {!searching ? (
        <Typography color="text.secondary" sx={{ p: 3 }}>
          {t('typeToSearch')}
        </Typography>
      ) : (
        <List aria-label={t('results')} sx={{ px: 1 }}>
          {results.items.map((hit) => {
            const cut = snippet(hit.text, hit.highlights.text);
            return (
              <ListItemButton
                key={`${hit.kind}:${hit.id}`}
                onClick={() => open(hit)}
                aria-label={t('openHit', { name: hit.contact.name })}
                divider
              >
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Typography component="span" sx={{ fontWeight: 600 }}>
                        <Marked text={hit.contact.name} ranges={hit.highlights.contactName} />
                      </Typography>
                      <Typography component="span" variant="body2" color="text.secondary">
                        {hit.contact.number ? (
                          <Marked text={hit.contact.number} ranges={hit.highlights.contactNumber} />
                        ) : (
                          shownNumber(hit.contact.number, t)
                        )}
                      </Typography>
                      <Chip size="small" label={t('ticket', { id: hit.ticket.id })} />
                      <Chip size="small" variant="outlined" label={t(`status.${hit.ticket.status}`)} />
                      {hit.kind === 'note' && <Chip size="small" color="info" label={t('note')} />}
                      <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
                        {formatDateTime(hit.createdAt)}
                      </Typography>
                    </Stack>
                  }
                  secondary={<Marked text={cut.text} ranges={cut.ranges} />}
                  slotProps={{ secondary: { sx: { whiteSpace: 'pre-wrap', mt: 0.5 } } }}
                />
              </ListItemButton>
            );
          })}
          {results.isLoading && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
              <CircularProgress size={24} />
            </Box>
          )}
          {!results.isLoading && results.items.length === 0 && (
            <Typography color="text.secondary" sx={{ p: 2 }}>
              {t('none')}
            </Typography>
          )}
        </List>
      )}
    </PageFrame>
  );
}
