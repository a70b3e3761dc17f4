import { useState } from 'react';
import {
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  ListSubheader,
  Menu,
  MenuItem,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import CopilotIcon from '@mui/icons-material/AutoAwesomeOutlined';
import UndoIcon from '@mui/icons-material/Undo';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import {
  COPILOT_LANGUAGES,
  COPILOT_STYLES,
  type CopilotDraft,
  type CopilotLanguage,
  type CopilotSuggestion,
  type CopilotSummary,
} from '#shared/schemas/copilot';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { Tooltip } from '../components/Tooltip';

interface Props {
  ticketId: number;
  /** the composer's draft */
  text: string;
  /** the ticket takes messages now (the draft actions are off otherwise) */
  writable: boolean;
  /** puts a new draft in the composer (never sends it) */
  onDraft(next: string): void;
}

const asLanguage = (lang: string | undefined): CopilotLanguage =>
  (COPILOT_LANGUAGES as readonly string[]).includes(lang?.slice(0, 2) ?? '')
    ? (lang!.slice(0, 2) as CopilotLanguage)
    : 'pt';

/**
 * The attendant's copilot beside the composer (issue 39): a suggested reply put in the composer with
 * the articles it used, a summary of the ticket in a dialog, and the draft rewritten or translated.
 * Whatever it writes replaces the draft, to be edited before sending (nothing is sent from here); the
 * draft it replaced comes back with "undo" until the attendant changes the new one.
 * Its own chunk (loaded for plans with AI only), with its own string table.
 */
export default function CopilotButton({ ticketId, text, writable, onDraft }: Props) {
  const { t, i18n } = useTranslation('copilot');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  /** the draft a copilot action replaced, while the composer still holds what it wrote */
  const [undo, setUndo] = useState<{ before: string; after: string } | null>(null);
  const [articles, setArticles] = useState<CopilotSuggestion['articles'] | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const hasDraft = text.trim().length > 0;

  const run = async <T,>(call: () => Promise<T>, done: (out: T) => void) => {
    setAnchor(null);
    setBusy(true);
    try {
      done(await call());
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const replaceDraft = (next: string) => {
    setUndo({ before: text, after: next });
    onDraft(next);
  };

  const suggest = () =>
    run(
      () => api.post<CopilotSuggestion>(`/copilot/${ticketId}/suggest`),
      (out) => {
        replaceDraft(out.text);
        setArticles(out.articles);
      },
    );
  const summarize = () =>
    run(
      () =>
        api.post<CopilotSummary>(`/copilot/${ticketId}/summary`, {
          language: asLanguage(i18n.resolvedLanguage ?? i18n.language),
        }),
      (out) => setSummary(out.text),
    );
  const rewrite = (style: (typeof COPILOT_STYLES)[number]) =>
    run(
      () => api.post<CopilotDraft>(`/copilot/${ticketId}/rewrite`, { text, style }),
      (out) => replaceDraft(out.text),
    );
  const translate = (to: CopilotLanguage) =>
    run(
      () => api.post<CopilotDraft>(`/copilot/${ticketId}/translate`, { text, to }),
      (out) => replaceDraft(out.text),
    );

  const draftActionsOff = !writable || !hasDraft;
  return (
    <>
      <Tooltip title={busy ? t('working') : t('open')}>
        <span>
          <IconButton
            aria-label={t('open')}
            aria-haspopup="menu"
            aria-busy={busy}
            disabled={busy}
            onClick={(e) => setAnchor(e.currentTarget)}
          >
            {busy ? <CircularProgress size={22} /> : <CopilotIcon />}
          </IconButton>
        </span>
      </Tooltip>
      {undo && text === undo.after && (
        <Tooltip title={t('undo')}>
          <IconButton
            aria-label={t('undo')}
            onClick={() => {
              onDraft(undo.before);
              setUndo(null);
              setArticles(null);
            }}
          >
            <UndoIcon />
          </IconButton>
        </Tooltip>
      )}
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <MenuItem disabled={!writable} onClick={() => void suggest()}>
          {t('suggest')}
        </MenuItem>
        <MenuItem onClick={() => void summarize()}>{t('summarize')}</MenuItem>
        <Divider />
        <ListSubheader>{hasDraft ? t('rewrite') : t('needsDraft')}</ListSubheader>
        {COPILOT_STYLES.map((style) => (
          <MenuItem key={style} disabled={draftActionsOff} onClick={() => void rewrite(style)}>
            {t(`styles.${style}`)}
          </MenuItem>
        ))}
        <ListSubheader>{t('translate')}</ListSubheader>
        {COPILOT_LANGUAGES.map((lang) => (
          <MenuItem key={lang} disabled={draftActionsOff} onClick={() => void translate(lang)}>
            {t(`languages.${lang}`)}
          </MenuItem>
        ))}
      </Menu>
      {articles && undo && text === undo.after && (
        <Paper
          elevation={4}
          role="region"
          aria-label={t('articles')}
          sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, p: 1, zIndex: 2 }}
        >
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <Typography variant="caption" sx={{ flex: 1 }} color="text.secondary">
              {t('suggested')}
            </Typography>
            <IconButton size="small" aria-label={t('closeArticles')} onClick={() => setArticles(null)}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Stack>
          {articles.length ? (
            <Stack direction="row" component="ul" sx={{ flexWrap: 'wrap', gap: 0.5, listStyle: 'none', m: 0, p: 0 }}>
              {articles.map((a) => (
                <Chip key={a.id} component="li" size="small" label={a.title} />
              ))}
            </Stack>
          ) : (
            <Typography variant="body2">{t('noArticles')}</Typography>
          )}
        </Paper>
      )}
      <Dialog open={summary !== null} onClose={() => setSummary(null)} fullWidth maxWidth="sm">
        <DialogTitle>{t('summaryTitle')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{summary}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSummary(null)}>{t('close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
