import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { can } from '#shared/permissions';
import { isSendableTemplate, type WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { api } from '../api/client';
import { PendingView } from '../components/PendingView';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { SearchField } from '../components/SearchField';
import { usePhone } from '../components/usePhone';
import type { Ticket } from '../tickets/types';
import {
  allFilled,
  MESSAGE_VARIABLES,
  matchTemplates,
  prefillValues,
  templateSendInput,
  type ParameterValues,
} from './template-rules';
import { TemplateChips, TemplateFields, TemplatePreview } from './TemplateParts';
import { useTemplates } from './useTemplates';

/** From this many templates on, the picker offers a search box. */
const SEARCH_FROM = 6;

interface Props {
  ticket: Pick<Ticket, 'id' | 'whatsappId'>;
  open: boolean;
  onClose(): void;
}

/**
 * The template picker of a Cloud API ticket (issue 36): the connection's approved templates that the
 * product can fill, one field per variable, a live preview, and the template sent as the ticket's
 * message (in or out of the 24-hour window).
 */
export default function TemplatePicker({ ticket, open, onClose }: Props) {
  const { t } = useTranslation(['templates', 'common']);
  const phone = usePhone();
  const { user } = useAuth();
  const { data, error, isLoading } = useTemplates(open ? (ticket.whatsappId ?? null) : null);
  const templates = useMemo(() => (data ?? []).filter(isSendableTemplate), [data]);
  const [query, setQuery] = useState('');
  // by id: a template paused meanwhile (a realtime update) leaves the choice
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [values, setValues] = useState<ParameterValues>({});
  const [busy, setBusy] = useState(false);
  const chosen = templates.find((x) => x.id === chosenId) ?? null;
  const ready = chosen !== null && allFilled(chosen.parameters, values);

  useEffect(() => {
    if (!open) {
      setChosenId(null);
      setQuery('');
    }
  }, [open]);

  const choose = (template: WhatsappTemplate) => {
    setChosenId(template.id);
    setValues(prefillValues(template.parameters));
  };

  const send = async () => {
    if (!chosen || !ready || busy) return;
    setBusy(true);
    try {
      await api.post(`/messages/${ticket.id}`, { template: templateSendInput(chosen, values) });
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const content = () => {
    if (error || isLoading || !data) return <PendingView error={error} />;
    if (templates.length === 0)
      return (
        <Stack sx={{ alignItems: 'center', gap: 1, py: 3, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 600 }}>{t('picker.empty')}</Typography>
          {can(user?.profile, 'connections-page:editOrDeleteConnection') && (
            <>
              <Typography variant="body2" color="text.secondary">
                {t('picker.emptyAdmin')}
              </Typography>
              <Button component={RouterLink} to="/connections" onClick={onClose}>
                {t('picker.connections')}
              </Button>
            </>
          )}
        </Stack>
      );
    if (!chosen) return <TemplateList templates={templates} query={query} onQuery={setQuery} onChoose={choose} />;
    return (
      <Stack sx={{ gap: 2 }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{chosen.name}</Typography>
          <TemplateChips template={chosen} />
          {templates.length > 1 && (
            <Button size="small" sx={{ ml: 'auto' }} onClick={() => setChosenId(null)}>
              {t('picker.change')}
            </Button>
          )}
        </Stack>
        <Stack direction={{ xs: 'column', md: 'row' }} sx={{ gap: 2, alignItems: 'flex-start' }}>
          <Stack sx={{ gap: 1.5, flex: 1, width: '100%' }}>
            <TemplateFields
              template={chosen}
              values={values}
              onChange={(key, value) => setValues((v) => ({ ...v, [key]: value }))}
            />
            <Typography variant="caption" color="text.secondary">
              {chosen.parameters.length
                ? t('picker.variablesHint', { variables: MESSAGE_VARIABLES.join(', ') })
                : t('picker.noVariables')}
            </Typography>
          </Stack>
          <TemplatePreview template={chosen} values={values} />
        </Stack>
      </Stack>
    );
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
      aria-labelledby="template-picker-title"
    >
      <DialogTitle id="template-picker-title">{t('picker.title')}</DialogTitle>
      <DialogContent dividers>{content()}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!ready || busy}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
          onClick={() => void send()}
        >
          {t('picker.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function TemplateList({
  templates,
  query,
  onQuery,
  onChoose,
}: {
  templates: WhatsappTemplate[];
  query: string;
  onQuery(query: string): void;
  onChoose(template: WhatsappTemplate): void;
}) {
  const { t } = useTranslation('templates');
  const shown = matchTemplates(templates, query);
  return (
    <Stack sx={{ gap: 1 }}>
      {templates.length >= SEARCH_FROM && <SearchField label={t('picker.search')} value={query} onChange={onQuery} />}
      <List dense disablePadding aria-label={t('picker.choose')}>
        {shown.map((template) => (
          <ListItemButton
            key={template.id}
            onClick={() => onChoose(template)}
            sx={{ gap: 1, borderBottom: 1, borderColor: 'divider' }}
          >
            <ListItemText
              primary={template.name}
              secondary={template.body}
              slotProps={{
                primary: { sx: { fontWeight: 600, wordBreak: 'break-all' } },
                secondary: { noWrap: true },
              }}
              sx={{ minWidth: 0 }}
            />
            <TemplateChips template={template} />
          </ListItemButton>
        ))}
      </List>
      {shown.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
          {t('picker.noMatch')}
        </Typography>
      )}
    </Stack>
  );
}
