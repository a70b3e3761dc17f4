import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { useTranslation } from 'react-i18next';
import { PROMPT_MODELS, PROMPT_TRANSFER_PHRASE, type Prompt } from '#shared/schemas/prompts';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { asList } from '../realtime/cache';
import { checkPrompt, emptyPrompt, promptToForm, type PromptForm } from './prompt-form';
import { useEditedRecord } from '../components/EditedRecord';

/** Field-specific words of section 5 where the generic ones would be vague. */
const SPECIFIC: Record<string, Record<string, string>> = {
  name: { short: 'modal.nameShort', long: 'modal.nameLong' },
  prompt: { short: 'modal.promptShort' },
  temperature: { invalid: 'modal.temperatureInvalid' },
};

/** Add/edit a prompt (management.md "AI prompts", sections 3, 5, 9). */
export function PromptModal({
  open,
  promptId,
  onClose,
  onSaved,
}: {
  open: boolean;
  promptId?: number;
  onClose(): void;
  onSaved(p: Prompt): void;
}) {
  const { t } = useTranslation(['prompts', 'common']);
  const [form, setForm] = useState<PromptForm>(emptyPrompt());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [showKey, setShowKey] = useState(false);
  const [busy, setBusy] = useState(false);
  const generic = useFieldError(errors);
  const { data: queueData } = useApi<unknown>(open ? '/queue' : null);
  const queues = asList<{ id: number; name: string }>(queueData, 'queues');

  // biome-ignore lint/correctness/useExhaustiveDependencies: promptId is a trigger: each prompt opened starts from an empty form
  useEffect(() => {
    if (!open) return;
    setErrors({});
    setShowKey(false);
    // never the last dialog's values: an edit shows its prompt once loaded, and what the user typed
    // meanwhile is not saved as if it were that prompt's (the load would overwrite it)
    setForm(emptyPrompt());
  }, [open, promptId]);
  const loading = useEditedRecord<Prompt>(open, promptId ? `/prompt/${promptId}` : null, (p) =>
    setForm(promptToForm(p)),
  );

  const fieldError = (key: string) => {
    const specific = SPECIFIC[key]?.[errors[key] ?? ''];
    return specific ? { error: true as const, helperText: t(specific) } : generic(key);
  };
  const set = <K extends keyof PromptForm>(key: K, value: PromptForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };
  const num = (key: 'temperature' | 'maxTokens' | 'maxMessages') => ({
    type: 'number',
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value === '' ? '' : Number(e.target.value)),
    ...fieldError(key),
    required: true,
    fullWidth: true,
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkPrompt(form, Boolean(promptId));
    if (!checked.ok) {
      setErrors(checked.errors);
      if (checked.chooseQueue) notify.error(t('chooseQueue'));
      return;
    }
    setBusy(true);
    try {
      const saved = promptId
        ? await api.put<Prompt>(`/prompt/${promptId}`, checked.body)
        : await api.post<Prompt>('/prompt', checked.body);
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const keyError = fieldError('apiKey');
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" scroll="paper" aria-labelledby="prompt-modal-title">
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogTitle id="prompt-modal-title">{promptId ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('modal.name')}
              value={form.name}
              onChange={(e) => set('name', e.target.value)}
              {...fieldError('name')}
              required
              autoFocus
              fullWidth
            />
            <TextField
              label={t('modal.apiKey')}
              type={showKey ? 'text' : 'password'}
              value={form.apiKey}
              onChange={(e) => set('apiKey', e.target.value)}
              {...keyError}
              helperText={keyError.helperText ?? (promptId ? t('modal.apiKeyKept') : undefined)}
              required={!promptId}
              fullWidth
              autoComplete="off"
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={showKey ? t('modal.hideKey') : t('modal.showKey')}
                        onClick={() => setShowKey((v) => !v)}
                        edge="end"
                      >
                        {showKey ? <VisibilityOffIcon /> : <VisibilityIcon />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <TextField
              label={t('modal.prompt')}
              value={form.prompt}
              onChange={(e) => set('prompt', e.target.value)}
              {...fieldError('prompt')}
              helperText={
                fieldError('prompt').helperText ?? t('modal.transferHint', { phrase: PROMPT_TRANSFER_PHRASE })
              }
              required
              multiline
              rows={10}
              fullWidth
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t('modal.queue')}
                value={form.queueId}
                onChange={(e) => set('queueId', e.target.value === '' ? '' : Number(e.target.value))}
                {...fieldError('queueId')}
                required
                fullWidth
              >
                {queues.map((q) => (
                  <MenuItem key={q.id} value={q.id}>
                    {q.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label={t('modal.model')}
                value={form.model}
                onChange={(e) => set('model', e.target.value)}
                {...fieldError('model')}
                required
                fullWidth
              >
                {PROMPT_MODELS.map((m) => (
                  <MenuItem key={m.value} value={m.value}>
                    {m.label}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('modal.temperature')}
                {...num('temperature')}
                slotProps={{ htmlInput: { min: 0, max: 1, step: 0.1 } }}
              />
              <TextField label={t('modal.maxTokens')} {...num('maxTokens')} slotProps={{ htmlInput: { min: 1 } }} />
              <TextField label={t('modal.maxMessages')} {...num('maxMessages')} slotProps={{ htmlInput: { min: 1 } }} />
            </Stack>
            <div>
              <FormControlLabel
                control={
                  <Switch
                    checked={form.useKnowledgeBase}
                    onChange={(e) => setForm((f) => ({ ...f, useKnowledgeBase: e.target.checked }))}
                    slotProps={{ input: { 'aria-describedby': 'prompt-kb-hint' } }}
                  />
                }
                label={t('modal.useKnowledgeBase')}
              />
              <FormHelperText id="prompt-kb-hint">{t('modal.useKnowledgeBaseHint')}</FormHelperText>
            </div>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || loading}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
