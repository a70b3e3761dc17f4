import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { errorMessage, toastError } from '../api/toast-error';
import { ApiError } from '../api/errors';
import { useFieldError } from '../components/useFieldError';
import { answerCode, sendTest, validateSend, type SendAnswer } from './send-form';

export interface ConnectionChoice {
  id: number;
  name: string;
  status: string;
}

/**
 * One test form of the messages API page (text, or media with a file): it calls the endpoint as an
 * outside client would, with the token typed here, and shows the HTTP answer.
 */
export function SendTestForm({
  kind,
  endpoint,
  connections,
}: {
  kind: 'text' | 'media';
  endpoint: string;
  connections: ConnectionChoice[];
}) {
  const { t } = useTranslation(['messagesApi', 'common']);
  const withMedia = kind === 'media';
  const [connectionId, setConnectionId] = useState<number | ''>('');
  const [form, setForm] = useState({ token: '', number: '', body: '' });
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<SendAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const fieldError = useFieldError(errors);
  const [masked, setMasked] = useState('');
  const chosen = connections.find((c) => c.id === connectionId);
  const id = `messages-api-${kind}`;

  const set = (key: keyof typeof form, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = { ...form, file, masked: chosen ? masked : '' };
    const found = validateSend(input, withMedia);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setFailed(false);
    setAnswer(null);
    try {
      setAnswer(await sendTest(endpoint, input, withMedia));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const tokenError = fieldError('token');
  const code = answer ? answerCode(answer) : undefined;
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0 }} component="section" aria-labelledby={`${id}-title`}>
      <Typography variant="h6" component="h2" id={`${id}-title`} sx={{ mb: 2 }}>
        {withMedia ? t('form.mediaTitle') : t('form.textTitle')}
      </Typography>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            select
            label={t('form.connection')}
            value={connectionId}
            onChange={(e) => {
              const next = e.target.value === '' ? '' : Number(e.target.value);
              setConnectionId(next);
              setMasked('');
              setErrors(({ token: _, ...rest }) => rest);
              // the list carries no token: the connection itself shows it masked (admins only)
              if (next !== '')
                api
                  .get<{ token?: string }>(`/whatsapp/${next}`, { session: 0 })
                  .then((w) => setMasked(w.token ?? ''), toastError);
            }}
            fullWidth
          >
            <MenuItem value="">{t('form.noConnection')}</MenuItem>
            {connections.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name} ({c.status})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('form.token')}
            value={form.token}
            onChange={(e) => set('token', e.target.value)}
            required
            fullWidth
            autoComplete="off"
            error={tokenError.error}
            helperText={
              errors.token === 'tokenMismatch'
                ? t('form.tokenMismatch')
                : (tokenError.helperText ??
                  (chosen && masked ? t('form.tokenHint', { name: chosen.name, masked }) : t('form.tokenHelp')))
            }
          />
          <TextField
            label={t('form.number')}
            value={form.number}
            onChange={(e) => set('number', e.target.value)}
            required
            fullWidth
            {...fieldError('number')}
            helperText={fieldError('number').helperText ?? t('form.numberHelp')}
            slotProps={{ htmlInput: { inputMode: 'tel' } }}
          />
          <TextField
            label={t('form.body')}
            value={form.body}
            onChange={(e) => set('body', e.target.value)}
            required
            fullWidth
            multiline
            minRows={3}
            {...fieldError('body')}
          />
          {withMedia && (
            <Box>
              <Button component="label" variant="outlined" startIcon={<AttachFileIcon />}>
                {t('form.chooseFile')}
                <input
                  type="file"
                  hidden
                  aria-label={t('form.file')}
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setErrors(({ file: _, ...rest }) => rest);
                  }}
                />
              </Button>
              <Typography variant="body2" sx={{ mt: 0.5 }} color={errors.file ? 'error' : 'text.secondary'}>
                {file
                  ? file.name
                  : errors.file
                    ? `${t('form.file')}: ${fieldError('file').helperText}`
                    : t('form.noFile')}
              </Typography>
            </Box>
          )}
          <Box>
            <Button
              type="submit"
              variant="contained"
              disabled={busy}
              startIcon={busy ? <CircularProgress size={16} /> : undefined}
            >
              {busy ? t('form.sending') : t('form.send')}
            </Button>
          </Box>
          {failed && <Alert severity="error">{t('form.networkError')}</Alert>}
          {answer && (
            <Box role="region" aria-label={t('form.answer')}>
              <Alert severity={answer.status < 300 ? 'success' : 'error'} sx={{ mb: 1 }}>
                {t('form.answerStatus', { status: answer.status })}
                {code ? ` · ${errorMessage(new ApiError(answer.status, code))}` : ''}
              </Alert>
              <Box
                component="pre"
                sx={{
                  m: 0,
                  p: 1,
                  bgcolor: 'action.hover',
                  borderRadius: 1,
                  overflow: 'auto',
                  maxHeight: 240,
                  fontSize: 12,
                }}
              >
                {JSON.stringify(answer.body, null, 2)}
              </Box>
            </Box>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
