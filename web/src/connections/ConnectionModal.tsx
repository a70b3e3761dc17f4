import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControl,
  FormControlLabel,
  IconButton,
  InputAdornment,
  InputLabel,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { useTranslation } from 'react-i18next';
import { CONNECTION_DEFAULTS, isCloudProvider } from '#shared/constants';
import { WhatsappBody, type Whatsapp } from '#shared/schemas/whatsapp';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { asList } from '../realtime/cache';

interface Form {
  name: string;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  token: string;
  queueIds: number[];
  transferQueueId: number | '';
  timeToTransfer: number | '';
  promptId: number | '';
  expiresTicket: number | '';
  expiresInactiveMessage: string;
  timeUseBotQueues: number | '';
  maxUseBotQueues: number | '';
  /** WhatsApp Web (`baileys`, legacy `beta`) or Meta's Cloud API (`cloud`): chosen once, at creation */
  provider: string;
  phoneNumberId: string;
  wabaId: string;
  /** Cloud API secrets: shown masked once stored; the fields hold new values, empty keeps them */
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

const EMPTY: Form = {
  name: '',
  isDefault: false,
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  token: '',
  queueIds: [],
  transferQueueId: '',
  timeToTransfer: '',
  promptId: '',
  expiresTicket: CONNECTION_DEFAULTS.expiresTicket,
  expiresInactiveMessage: '',
  timeUseBotQueues: CONNECTION_DEFAULTS.timeUseBotQueues,
  maxUseBotQueues: CONNECTION_DEFAULTS.maxUseBotQueues,
  provider: 'baileys',
  phoneNumberId: '',
  wabaId: '',
  accessToken: '',
  appSecret: '',
  verifyToken: '',
};

const CLOUD_FIELDS = ['phoneNumberId', 'wabaId', 'accessToken', 'appSecret', 'verifyToken'] as const;

const fromWhatsapp = (w: Whatsapp): Form => ({
  name: w.name,
  isDefault: w.isDefault,
  greetingMessage: w.greetingMessage ?? '',
  complationMessage: w.complationMessage ?? '',
  outOfHoursMessage: w.outOfHoursMessage ?? '',
  ratingMessage: w.ratingMessage ?? '',
  // the stored token is only shown masked: the field holds a new token to set, empty keeps it
  token: '',
  queueIds: w.queueIds ?? w.queues?.map((q) => q.id) ?? [],
  transferQueueId: w.transferQueueId ?? '',
  timeToTransfer: w.timeToTransfer ?? '',
  promptId: w.promptId ?? '',
  expiresTicket: w.expiresTicket ?? 0,
  expiresInactiveMessage: w.expiresInactiveMessage ?? '',
  timeUseBotQueues: w.timeUseBotQueues ?? 0,
  maxUseBotQueues: w.maxUseBotQueues ?? CONNECTION_DEFAULTS.maxUseBotQueues,
  provider: w.provider,
  phoneNumberId: w.phoneNumberId ?? '',
  wabaId: w.wabaId ?? '',
  accessToken: '',
  appSecret: '',
  verifyToken: w.verifyToken ?? '',
});

const randomToken = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Add/edit a connection (management.md sections 2, 3, 5 and 7; defaults of section 9). */
export function ConnectionModal({
  open,
  whatsappId,
  onClose,
}: {
  open: boolean;
  whatsappId?: number;
  onClose(): void;
}) {
  const { t } = useTranslation(['connections', 'common']);
  const { plan } = useAuth();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  /** the stored token, masked: only a token typed or generated here is ever shown in full */
  const [maskedToken, setMaskedToken] = useState('');
  /** a Cloud API connection's stored secrets, masked */
  const [maskedCloud, setMaskedCloud] = useState({ accessToken: '', appSecret: '' });
  const fieldError = useFieldError(errors);
  const { data: queueData } = useApi<unknown>(open ? '/queue' : null);
  const { data: promptData } = useApi<unknown>(open && plan?.useOpenAi ? '/prompt' : null);
  const queues = asList<{ id: number; name: string; color: string }>(queueData, 'queues');
  const prompts = asList<{ id: number; name: string }>(promptData, 'prompts');

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setMaskedToken('');
    // a new connection gets its token here, so the admin sees it before it is stored hashed
    if (!whatsappId) return setForm({ ...EMPTY, token: randomToken() });
    api.get<Whatsapp>(`/whatsapp/${whatsappId}`, { session: 0 }).then((w) => {
      setForm(fromWhatsapp(w));
      setMaskedToken(w.token ?? '');
      setMaskedCloud({ accessToken: w.accessToken ?? '', appSecret: w.appSecret ?? '' });
    }, toastError);
  }, [open, whatsappId]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const num = (key: 'timeToTransfer' | 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues') => ({
    type: 'number',
    value: form[key],
    onChange: (e: { target: { value: string } }) =>
      set(key, e.target.value === '' ? '' : Math.max(0, Number(e.target.value))),
    slotProps: { htmlInput: { min: 0 } },
    ...fieldError(key),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { provider, ...fields } = form;
    const cloud = isCloudProvider(provider);
    // the Cloud API fields go only with a cloud connection, and only those filled in
    for (const key of CLOUD_FIELDS) if (!cloud || !fields[key].trim()) delete (fields as Partial<Form>)[key];
    const parsed = WhatsappBody.safeParse({
      ...fields,
      // fixed once created: sent only by the add form
      ...(whatsappId ? {} : { provider }),
      expiresTicket: form.expiresTicket === '' ? 0 : form.expiresTicket,
      timeUseBotQueues: form.timeUseBotQueues === '' ? 0 : form.timeUseBotQueues,
      maxUseBotQueues: form.maxUseBotQueues === '' ? CONNECTION_DEFAULTS.maxUseBotQueues : form.maxUseBotQueues,
      promptId: form.promptId === '' ? null : form.promptId,
      transferQueueId: form.transferQueueId === '' ? null : form.transferQueueId,
      timeToTransfer: form.timeToTransfer === '' ? null : form.timeToTransfer,
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      if (whatsappId) await api.put(`/whatsapp/${whatsappId}`, parsed.data);
      else await api.post('/whatsapp', parsed.data);
      notify.success(t('modal.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const multiline = (
    key: 'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'ratingMessage' | 'expiresInactiveMessage',
  ) => (
    <TextField
      label={t(`modal.${key}`)}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      {...fieldError(key)}
      multiline
      minRows={2}
      maxRows={6}
      fullWidth
    />
  );

  const tokenError = fieldError('token');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      scroll="paper"
      aria-labelledby="connection-modal-title"
    >
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogTitle id="connection-modal-title">{whatsappId ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                label={t('modal.name')}
                value={form.name}
                onChange={(e) => set('name', e.target.value)}
                {...fieldError('name')}
                required
                autoFocus
                fullWidth
              />
              <FormControlLabel
                control={<Switch checked={form.isDefault} onChange={(e) => set('isDefault', e.target.checked)} />}
                label={t('modal.isDefault')}
              />
            </Stack>
            <TextField
              select
              label={t('modal.provider')}
              value={isCloudProvider(form.provider) ? 'cloud' : 'baileys'}
              onChange={(e) => set('provider', e.target.value)}
              disabled={Boolean(whatsappId)}
              helperText={t(isCloudProvider(form.provider) ? 'modal.providerCloudHelp' : 'modal.providerWebHelp')}
              fullWidth
            >
              <MenuItem value="baileys">{t('modal.providerWeb')}</MenuItem>
              <MenuItem value="cloud">{t('modal.providerCloud')}</MenuItem>
            </TextField>
            {isCloudProvider(form.provider) && (
              <>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField
                    label={t('modal.phoneNumberId')}
                    value={form.phoneNumberId}
                    onChange={(e) => set('phoneNumberId', e.target.value)}
                    {...fieldError('phoneNumberId')}
                    disabled={Boolean(whatsappId)}
                    required
                    fullWidth
                  />
                  <TextField
                    label={t('modal.wabaId')}
                    value={form.wabaId}
                    onChange={(e) => set('wabaId', e.target.value)}
                    {...fieldError('wabaId')}
                    required
                    fullWidth
                  />
                </Stack>
                {(['accessToken', 'appSecret'] as const).map((key) => {
                  const error = fieldError(key);
                  return (
                    <TextField
                      key={key}
                      type="password"
                      autoComplete="off"
                      label={t(`modal.${key}`)}
                      value={form[key]}
                      onChange={(e) => set(key, e.target.value)}
                      {...error}
                      helperText={
                        error.error
                          ? error.helperText
                          : maskedCloud[key]
                            ? t('modal.secretCurrent', { masked: maskedCloud[key] })
                            : undefined
                      }
                      required={!whatsappId}
                      fullWidth
                    />
                  );
                })}
                <TextField
                  label={t('modal.verifyToken')}
                  value={form.verifyToken}
                  onChange={(e) => set('verifyToken', e.target.value)}
                  {...fieldError('verifyToken')}
                  helperText={fieldError('verifyToken').helperText ?? t('modal.verifyTokenHelp')}
                  fullWidth
                />
              </>
            )}
            <Typography variant="subtitle2">{t('modal.sectionMessages')}</Typography>
            {multiline('greetingMessage')}
            {multiline('complationMessage')}
            {multiline('outOfHoursMessage')}
            {multiline('ratingMessage')}
            <TextField
              label={t('modal.token')}
              value={form.token}
              onChange={(e) => set('token', e.target.value)}
              {...tokenError}
              helperText={
                tokenError.error
                  ? tokenError.helperText
                  : maskedToken
                    ? t('modal.tokenCurrent', { masked: maskedToken })
                    : t('modal.tokenNew')
              }
              fullWidth
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Tooltip title={t('modal.generateToken')}>
                        <IconButton
                          aria-label={t('modal.generateToken')}
                          onClick={() => set('token', randomToken())}
                          edge="end"
                        >
                          <AutorenewIcon />
                        </IconButton>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Divider />
            <Typography variant="subtitle2">{t('modal.sectionQueues')}</Typography>
            <FormControl fullWidth>
              <InputLabel id="connection-queues-label">{t('modal.queues')}</InputLabel>
              <Select
                labelId="connection-queues-label"
                label={t('modal.queues')}
                multiple
                value={form.queueIds}
                onChange={(e) => set('queueIds', (e.target.value as number[]).map(Number))}
                renderValue={(ids) =>
                  queues
                    .filter((q) => ids.includes(q.id))
                    .map((q) => q.name)
                    .join(', ')
                }
              >
                {queues.map((q) => (
                  <MenuItem key={q.id} value={q.id}>
                    <Checkbox checked={form.queueIds.includes(q.id)} />
                    <ListItemText primary={q.name} />
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t('modal.transferQueue')}
                value={form.transferQueueId}
                onChange={(e) => set('transferQueueId', e.target.value === '' ? '' : Number(e.target.value))}
                fullWidth
              >
                <MenuItem value="">{t('modal.noQueue')}</MenuItem>
                {queues.map((q) => (
                  <MenuItem key={q.id} value={q.id}>
                    {q.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField label={t('modal.timeToTransfer')} {...num('timeToTransfer')} fullWidth />
            </Stack>
            {plan?.useOpenAi && (
              <TextField
                select
                label={t('modal.prompt')}
                value={form.promptId}
                onChange={(e) => set('promptId', e.target.value === '' ? '' : Number(e.target.value))}
                fullWidth
              >
                <MenuItem value="">{t('modal.noQueue')}</MenuItem>
                {prompts.map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Divider />
            <Typography variant="subtitle2">{t('modal.sectionBot')}</Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField label={t('modal.expiresTicket')} {...num('expiresTicket')} fullWidth />
              <TextField label={t('modal.timeUseBotQueues')} {...num('timeUseBotQueues')} fullWidth />
              <TextField label={t('modal.maxUseBotQueues')} {...num('maxUseBotQueues')} fullWidth />
            </Stack>
            {multiline('expiresInactiveMessage')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
