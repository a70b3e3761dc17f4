import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ContactDuplicate, ContactMergeCounts } from '#shared/schemas/contacts';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';

type Suggestion = ContactDuplicate;
type Person = Suggestion['contacts'][number];

const pairKey = (s: Suggestion) => s.contacts.map((c) => c.id).join('-');
const describe = (c: Person) => [c.number, c.lid ? `lid ${c.lid}` : ''].filter(Boolean).join(' · ');
/** The contact kept by default: one with a number, then the older one. */
const defaultKeep = (s: Suggestion) => {
  const [a, b] = s.contacts;
  if (Boolean(a.number) !== Boolean(b.number)) return a.number ? a : b;
  return a.id < b.id ? a : b;
};

/**
 * Suggested duplicates (admins, issue 27): each pair with its reasons, "Merge" (a confirmation that
 * names the contact kept and counts what moves) and "Not duplicates". Pages by cursor.
 */
export function DuplicatesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('contactsPage');
  const [items, setItems] = useState<Suggestion[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);
  const [merging, setMerging] = useState<Suggestion | null>(null);

  const load = useCallback(async (from?: string) => {
    setLoading(true);
    try {
      const res = await api.get<{ suggestions: Suggestion[]; hasMore: boolean; cursor?: string }>(
        '/contacts/duplicates',
        { cursor: from },
      );
      setItems((prev) => (from ? [...prev, ...res.suggestions] : res.suggestions));
      setCursor(res.hasMore ? res.cursor : undefined);
    } catch (err) {
      toastError(err);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  const dismiss = async (s: Suggestion) => {
    try {
      await api.post('/contacts/duplicates/dismiss', { contactIds: s.contacts.map((c) => c.id) });
      setItems((prev) => prev.filter((x) => pairKey(x) !== pairKey(s)));
      notify.success(t('duplicates.dismissed'));
    } catch (err) {
      toastError(err);
    }
  };

  const merged = (mergedId: number) => {
    setMerging(null);
    // every suggestion naming the merged contact is gone; the kept one may pair with others still
    setItems((prev) => prev.filter((s) => !s.contacts.some((c) => c.id === mergedId)));
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="duplicates-title">
        <DialogTitle id="duplicates-title">{t('duplicates.title')}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('duplicates.intro')}
          </Typography>
          {!loading && items.length === 0 && <Alert severity="success">{t('duplicates.none')}</Alert>}
          <Stack spacing={1.5} component="ul" aria-label={t('duplicates.title')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {items.map((s) => (
              <Paper key={pairKey(s)} component="li" variant="outlined" sx={{ p: 1.5 }}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
                  <Stack sx={{ flex: 1 }} spacing={0.5}>
                    {s.contacts.map((c) => (
                      <Box key={c.id}>
                        <Typography variant="body2" sx={{ fontWeight: 500 }}>
                          {c.name}{' '}
                          <Typography component="span" variant="caption" color="text.secondary">
                            #{c.id}
                          </Typography>
                        </Typography>
                        <Typography variant="body2" color="text.secondary">
                          {describe(c)}
                        </Typography>
                      </Box>
                    ))}
                    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
                      {s.reasons.map((r) => (
                        <Chip
                          key={r}
                          size="small"
                          color="primary"
                          variant="outlined"
                          label={t(`duplicates.reasons.${r}`)}
                        />
                      ))}
                    </Stack>
                  </Stack>
                  <Stack direction="row" spacing={1}>
                    <Button
                      variant="contained"
                      onClick={() => setMerging(s)}
                      aria-label={t('duplicates.mergeLabel', { a: s.contacts[0].name, b: s.contacts[1].name })}
                    >
                      {t('duplicates.merge')}
                    </Button>
                    <Button
                      onClick={() => void dismiss(s)}
                      aria-label={t('duplicates.dismissLabel', { a: s.contacts[0].name, b: s.contacts[1].name })}
                    >
                      {t('duplicates.dismiss')}
                    </Button>
                  </Stack>
                </Stack>
              </Paper>
            ))}
          </Stack>
          {loading && (
            <Stack sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={24} />
            </Stack>
          )}
          {cursor && !loading && (
            <Stack sx={{ alignItems: 'center', pt: 2 }}>
              <Button onClick={() => void load(cursor)}>{t('duplicates.more')}</Button>
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.close')}</Button>
        </DialogActions>
      </Dialog>
      {merging && <MergeConfirm suggestion={merging} onClose={() => setMerging(null)} onMerged={merged} />}
    </>
  );
}

const COUNT_KEYS = ['tickets', 'messages', 'notes', 'schedules', 'listMemberships', 'extraInfo'] as const;

/** Which contact stays, and what moves into it (GET /contacts/{keep}/merge/{other}), then the merge. */
function MergeConfirm({
  suggestion,
  onClose,
  onMerged,
}: {
  suggestion: Suggestion;
  onClose: () => void;
  onMerged: (mergedId: number) => void;
}) {
  const { t } = useTranslation('contactsPage');
  const [keepId, setKeepId] = useState(defaultKeep(suggestion).id);
  const [counts, setCounts] = useState<ContactMergeCounts | null>(null);
  const [busy, setBusy] = useState(false);
  const keep = suggestion.contacts.find((c) => c.id === keepId)!;
  const other = suggestion.contacts.find((c) => c.id !== keepId)!;

  useEffect(() => {
    let live = true;
    setCounts(null);
    api
      .get<ContactMergeCounts>(`/contacts/${keep.id}/merge/${other.id}`)
      .then((c) => live && setCounts(c))
      .catch(toastError);
    return () => {
      live = false;
    };
  }, [keep.id, other.id]);

  const confirm = async () => {
    setBusy(true);
    try {
      await api.post(`/contacts/${keep.id}/merge`, { otherId: other.id });
      notify.success(t('duplicates.merged', { name: keep.name }));
      onMerged(other.id);
    } catch (err) {
      toastError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="merge-title">
      <DialogTitle id="merge-title">{t('duplicates.confirmTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t('duplicates.keepWhich')}
        </Typography>
        <RadioGroup value={String(keepId)} onChange={(e) => setKeepId(Number(e.target.value))}>
          {suggestion.contacts.map((c) => (
            <FormControlLabel
              key={c.id}
              value={String(c.id)}
              control={<Radio />}
              label={`${c.name} (#${c.id}) ${describe(c)}`}
            />
          ))}
        </RadioGroup>
        <Typography variant="body2" sx={{ mt: 2 }}>
          {t('duplicates.moves', { other: other.name, keep: keep.name })}
        </Typography>
        {counts ? (
          <List dense aria-label={t('duplicates.countsLabel')}>
            {/* tickets and messages always; the rest when there is any */}
            {COUNT_KEYS.filter((k) => k === 'tickets' || k === 'messages' || counts[k] > 0).map((k) => (
              <ListItem key={k} disableGutters>
                <ListItemText primary={t(`duplicates.counts.${k}`, { count: counts[k] })} />
              </ListItem>
            ))}
          </List>
        ) : (
          <CircularProgress size={20} sx={{ my: 1 }} />
        )}
        {counts && counts.closedTickets > 0 && (
          <Alert severity="info" sx={{ mb: 1 }}>
            {t('duplicates.closedTickets', { count: counts.closedTickets, keep: keep.name })}
          </Alert>
        )}
        <Alert severity="warning">{t('duplicates.irreversible', { other: other.name })}</Alert>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
        <Button variant="contained" color="primary" disabled={busy || !counts} onClick={() => void confirm()}>
          {t('duplicates.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
