import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  DIALOGFLOW_LANGUAGES,
  INTEGRATION_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
  type IntegrationType,
  type QueueIntegration,
  type TestSessionResponse,
} from '#shared/schemas/integrations';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import {
  FIELDS_BY_TYPE,
  REQUIRED_BY_TYPE,
  checkIntegration,
  emptyIntegration,
  integrationToForm,
  type IntegrationField,
  type IntegrationForm,
} from './integration-form';

const MULTILINE: Partial<Record<IntegrationField, number>> = {
  jsonContent: 8,
  typebotUnknownMessage: 2,
  typebotRestartMessage: 2,
};
const NUMBERS = new Set<IntegrationField>(['typebotExpires', 'typebotDelayMessage']);

/** Add/edit a queue integration: a type selector and the type's own fields (management.md 2, 3, 5, 9). */
export function IntegrationModal({
  open,
  integrationId,
  onClose,
  onSaved,
}: {
  open: boolean;
  integrationId?: number;
  onClose(): void;
  onSaved(i: QueueIntegration): void;
}) {
  const { t } = useTranslation(['integrations', 'common']);
  const [form, setForm] = useState<IntegrationForm>(emptyIntegration());
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setSecret('');
    if (!integrationId) return setForm(emptyIntegration());
    api.get<QueueIntegration>(`/queueIntegration/${integrationId}`).then((i) => {
      setForm(integrationToForm(i));
      setSecret(i.webhookSecret ?? '');
    }, toastError);
  }, [open, integrationId]);

  const set = <K extends keyof IntegrationForm>(key: K, value: IntegrationForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkIntegration(form);
    if (!checked.ok) return setErrors(checked.errors);
    setBusy(true);
    try {
      const saved = integrationId
        ? await api.put<QueueIntegration>(`/queueIntegration/${integrationId}`, checked.body)
        : await api.post<QueueIntegration>('/queueIntegration', checked.body);
      notify.success(integrationId ? t('edited') : t('added'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const testSession = async () => {
    setTesting(true);
    try {
      const res = await api.post<TestSessionResponse>('/queueIntegration/testSession', {
        projectName: form.projectName,
        jsonContent: form.jsonContent,
        language: form.language || 'pt-BR',
        id: integrationId ?? null,
      });
      notify.success(t('testSuccess', { answer: res.answer }));
    } catch (err) {
      toastError(err);
    } finally {
      setTesting(false);
    }
  };

  const field = (key: IntegrationField) => {
    const required = REQUIRED_BY_TYPE[form.type].includes(key);
    if (key === 'language')
      return (
        <TextField
          key={key}
          select
          label={t('modal.language')}
          value={form.language}
          onChange={(e) => set('language', e.target.value)}
          {...fieldError(key)}
          fullWidth
        >
          {DIALOGFLOW_LANGUAGES.map((l) => (
            <MenuItem key={l.value} value={l.value}>
              {t(`modal.languages.${l.value}`)}
            </MenuItem>
          ))}
        </TextField>
      );
    const numeric = NUMBERS.has(key);
    return (
      <TextField
        key={key}
        label={t(`modal.${key}`)}
        value={form[key]}
        type={numeric ? 'number' : 'text'}
        onChange={(e) =>
          set(key, (numeric ? (e.target.value === '' ? '' : Number(e.target.value)) : e.target.value) as never)
        }
        {...fieldError(key)}
        required={required}
        autoFocus={key === 'name'}
        multiline={Boolean(MULTILINE[key])}
        minRows={MULTILINE[key]}
        slotProps={numeric ? { htmlInput: { min: 0 } } : undefined}
        fullWidth
      />
    );
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      scroll="paper"
      aria-labelledby="integration-modal-title"
    >
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogTitle id="integration-modal-title">
          {integrationId ? t('modal.titleEdit') : t('modal.titleAdd')}
        </DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              select
              label={t('modal.type')}
              value={form.type}
              onChange={(e) => {
                set('type', e.target.value as IntegrationType);
                setErrors({});
              }}
              required
              fullWidth
            >
              {INTEGRATION_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
            {FIELDS_BY_TYPE[form.type].map(field)}
            {secret && (form.type === 'n8n' || form.type === 'webhook') && (
              <TextField
                label={t('modal.webhookSecret', { header: WEBHOOK_SIGNATURE_HEADER })}
                value={secret}
                fullWidth
                slotProps={{ htmlInput: { readOnly: true } }}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          {form.type === 'dialogflow' && (
            <Button
              onClick={() => void testSession()}
              disabled={testing || !form.jsonContent.trim()}
              startIcon={testing ? <CircularProgress size={16} /> : undefined}
              sx={{ mr: 'auto' }}
            >
              {t('modal.testSession')}
            </Button>
          )}
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
