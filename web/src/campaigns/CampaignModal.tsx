import { Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
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
  Grid,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CancelIcon from '@mui/icons-material/Cancel';
import { useTranslation } from 'react-i18next';
import { isCloudProvider } from '#shared/constants';
import { CAMPAIGN_MESSAGE_FIELDS, CampaignBody, type Campaign } from '#shared/schemas/campaigns';
import type { WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { asList } from '../realtime/cache';
import { fieldErrors } from '../lib/zod-errors';
import { toLocalInput } from '../schedules/schedule-view';
import { prefillValues, templateSendInput, type ParameterValues } from '../templates/template-rules';
import { useTemplates } from '../templates/useTemplates';
import { CampaignTemplate } from './CampaignTemplate';
import { PauseNotice } from './PauseNotice';
import { VariableChips } from './VariableChips';
import {
  MESSAGE_VARIABLES,
  audienceOf,
  type Audience,
  canCancel,
  canRestart,
  findTemplate,
  insertAt,
  isEditable,
  parseSettings,
  templateErrors,
  templateFieldValues,
  variableToken,
  type TemplateChoice,
  type TemplateError,
} from './campaign-rules';
import type { CampaignSettingsList } from '#shared/schemas/campaigns';

type MessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];
interface Named {
  id: number;
  name: string;
}
interface Connection extends Named {
  provider?: string;
}

const emptyForm = () => ({
  name: '',
  message1: '',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  whatsappId: '' as number | '',
  contactListId: '' as number | '',
  tagId: '' as number | '',
  segmentId: '' as number | '',
  fileListId: '' as number | '',
  scheduledAt: '',
});

/**
 * Add/edit a campaign (management.md "Campaigns", 4, 9): name, connection, audience (contact list or
 * tag), file list, scheduledAt, five message variants with the message variables, and media. On a
 * Cloud API connection the message is one approved template with its variables instead, and there is
 * no file list or media (Meta takes only templates from a business outside the 24-hour window).
 * Read-only unless INATIVA, CANCELADA, or PROGRAMADA more than 1 hour ahead. Cancel and restart here.
 */
export function CampaignModal({
  open,
  campaign,
  onClose,
  onSaved,
}: {
  open: boolean;
  campaign: Campaign | null;
  onClose(): void;
  onSaved(c: Campaign): void;
}) {
  const { t } = useTranslation(['campaigns', 'common']);
  const [form, setForm] = useState(emptyForm);
  const [audience, setAudience] = useState<Audience>('list');
  const [tab, setTab] = useState<MessageField>('message1');
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [chosen, setChosen] = useState<TemplateChoice | null>(null);
  const [values, setValues] = useState<ParameterValues>({});
  const [templateErrs, setTemplateErrs] = useState<Record<string, TemplateError>>({});
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const messageInput = useRef<HTMLTextAreaElement>(null);
  const fieldError = useFieldError(errors);
  const editable = isEditable(campaign);

  const { data: whatsapps } = useApi<unknown>(open ? '/whatsapp' : null);
  const { data: lists } = useApi<unknown>(open ? '/contact-lists/list' : null);
  const { data: tags } = useApi<unknown>(open ? '/tags/list' : null);
  const { data: segments } = useApi<Named[]>(open ? '/segments' : null);
  const { data: files } = useApi<unknown>(open ? '/files' : null, { limit: 100 });
  const { data: settings } = useApi<CampaignSettingsList>(open ? '/campaign-settings' : null);
  const variableKeys = [...MESSAGE_VARIABLES, ...parseSettings(settings).variables.map((v) => v.key)];
  const connections = asList<Connection>(whatsapps, 'whatsapps');
  const cloud = isCloudProvider(connections.find((w) => w.id === form.whatsappId)?.provider);
  const templates = useTemplates(open && cloud ? Number(form.whatsappId) : null);
  const template = findTemplate(templates.data, chosen);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setTemplateErrs({});
    setChosen(campaign?.template ? { name: campaign.template.name, language: campaign.template.language } : null);
    setValues(templateFieldValues(campaign?.template));
    setFile(null);
    setTab('message1');
    setMediaName(campaign?.mediaName ?? null);
    setAudience(audienceOf(campaign));
    if (!campaign) return setForm(emptyForm());
    setForm({
      name: campaign.name,
      message1: campaign.message1 ?? '',
      message2: campaign.message2 ?? '',
      message3: campaign.message3 ?? '',
      message4: campaign.message4 ?? '',
      message5: campaign.message5 ?? '',
      whatsappId: campaign.whatsappId ?? '',
      contactListId: campaign.contactListId ?? '',
      tagId: campaign.tagId ?? '',
      segmentId: campaign.segmentId ?? '',
      fileListId: campaign.fileListId ?? '',
      scheduledAt: campaign.scheduledAt ? toLocalInput(campaign.scheduledAt) : '',
    });
  }, [open, campaign]);

  const set = (patch: Partial<ReturnType<typeof emptyForm>>) => setForm((f) => ({ ...f, ...patch }));

  // another connection has other templates
  const chooseConnection = (whatsappId: number | '') => {
    set({ whatsappId });
    setChosen(null);
    setValues({});
    setTemplateErrs({});
  };

  const chooseTemplate = (next: WhatsappTemplate) => {
    setChosen({ name: next.name, language: next.language });
    setValues(prefillValues(next.parameters));
    setTemplateErrs({});
  };

  // a variable typed in loses its error at once
  const setTemplateValue = (key: string, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setTemplateErrs(({ [key]: _, ...rest }) => rest);
  };

  const insertVariable = (key: string) => {
    const el = messageInput.current;
    const { text, caret } = insertAt(
      form[tab],
      variableToken(key),
      el?.selectionStart ?? undefined,
      el?.selectionEnd ?? undefined,
    );
    set({ [tab]: text });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  };

  const removeMedia = async () => {
    if (file) return setFile(null);
    if (!campaign) return;
    try {
      const saved = await api.delete<Campaign>(`/campaigns/${campaign.id}/media-upload`);
      setMediaName(null);
      if (saved) onSaved(saved);
      notify.success(t('modal.mediaRemoved'));
    } catch (err) {
      toastError(err);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editable) return;
    const raw = {
      ...form,
      whatsappId: form.whatsappId || null,
      contactListId: audience === 'list' ? form.contactListId || null : null,
      tagListId: audience === 'tag' ? form.tagId || null : null,
      segmentId: audience === 'segment' ? form.segmentId || null : null,
      tagId: undefined,
      fileListId: form.fileListId || null,
      scheduledAt: form.scheduledAt ? new Date(form.scheduledAt).toISOString() : null,
      // a Cloud API campaign sends its template only: the message variants and file list are not used
      ...(cloud && {
        ...Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((f) => [f, ''])),
        fileListId: null,
        ...(template && { template: templateSendInput(template, values) }),
      }),
    };
    const parsed = CampaignBody.safeParse(raw);
    const tplErrs = cloud ? templateErrors(chosen, template, values, !!(file || mediaName)) : {};
    const errs = parsed.success ? {} : fieldErrors(parsed.error);
    // without a template the schema asks for a message, which a cloud campaign has none of: the template's error says it
    if (cloud) delete errs.message1;
    if (Object.keys(errs).length || Object.keys(tplErrs).length) {
      if (errs.contactListId && audience === 'tag') errs.tagId = errs.contactListId;
      if (errs.contactListId && audience === 'segment') errs.segmentId = errs.contactListId;
      setTemplateErrs(tplErrs);
      return setErrors(errs);
    }
    setErrors({});
    setTemplateErrs({});
    setBusy(true);
    try {
      const body = { ...raw, tagId: undefined };
      let saved = campaign
        ? await api.put<Campaign>(`/campaigns/${campaign.id}`, body)
        : await api.post<Campaign>('/campaigns', body);
      if (file) {
        const data = new FormData();
        data.append('file', file);
        saved = (await api.post<Campaign>(`/campaigns/${saved.id}/media-upload`, data)) ?? saved;
      }
      notify.success(t('saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  // Section 8: cancel and restart failures show the error message as a toast.
  const act = async (action: 'cancel' | 'restart') => {
    if (!campaign) return;
    try {
      const saved = await api.post<Campaign>(`/campaigns/${campaign.id}/${action}`);
      notify.success(t(action === 'cancel' ? 'canceled' : 'started'));
      if (saved) onSaved(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const select = (
    name: 'whatsappId' | 'contactListId' | 'tagId' | 'segmentId' | 'fileListId',
    label: string,
    options: Named[],
    optional = false,
  ) => (
    <TextField
      select
      label={label}
      value={form[name]}
      onChange={(e) => {
        const value = e.target.value === '' ? '' : Number(e.target.value);
        if (name === 'whatsappId') chooseConnection(value);
        else set({ [name]: value });
      }}
      disabled={!editable}
      required={!optional}
      fullWidth
      {...fieldError(name)}
    >
      {optional && (
        <MenuItem value="">
          <em>{t('modal.none')}</em>
        </MenuItem>
      )}
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );

  const shownMedia = file ? file.name : mediaName;
  const title = !campaign ? t('modal.titleAdd') : editable ? t('modal.titleEdit') : t('modal.titleView');
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="campaign-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="campaign-modal-title">{title}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {campaign && <PauseNotice campaign={campaign} />}
            {!editable && <Alert severity="info">{t('modal.readOnly')}</Alert>}
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 4 }}>
                <TextField
                  label={t('modal.name')}
                  value={form.name}
                  onChange={(e) => set({ name: e.target.value })}
                  {...fieldError('name')}
                  required
                  autoFocus
                  disabled={!editable}
                  fullWidth
                />
              </Grid>
              <Grid size={{ xs: 12, md: 4 }}>{select('whatsappId', t('modal.whatsapp'), connections)}</Grid>
              <Grid size={{ xs: 12, md: 4 }}>
                <TextField
                  label={t('modal.scheduledAt')}
                  type="datetime-local"
                  value={form.scheduledAt}
                  onChange={(e) => set({ scheduledAt: e.target.value })}
                  disabled={!editable}
                  fullWidth
                  helperText={t('modal.scheduledHint')}
                  slotProps={{ inputLabel: { shrink: true } }}
                  {...(errors.scheduledAt ? fieldError('scheduledAt') : {})}
                />
              </Grid>
              <Grid size={{ xs: 12, md: 4 }}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {t('modal.audience')}
                </Typography>
                <RadioGroup
                  row
                  value={audience}
                  onChange={(e) => setAudience(e.target.value as Audience)}
                  aria-label={t('modal.audience')}
                >
                  <FormControlLabel
                    value="list"
                    control={<Radio disabled={!editable} />}
                    label={t('modal.audienceList')}
                  />
                  <FormControlLabel
                    value="tag"
                    control={<Radio disabled={!editable} />}
                    label={t('modal.audienceTag')}
                  />
                  <FormControlLabel
                    value="segment"
                    control={<Radio disabled={!editable} />}
                    label={t('modal.audienceSegment')}
                  />
                </RadioGroup>
              </Grid>
              <Grid size={{ xs: 12, md: 4 }}>
                {audience === 'list'
                  ? select('contactListId', t('modal.contactList'), asList<Named>(lists, 'records'))
                  : audience === 'segment'
                    ? select('segmentId', t('modal.segment'), segments ?? [])
                    : select('tagId', t('modal.tag'), asList<Named>(tags, 'tags'))}
              </Grid>
              {!cloud && (
                <Grid size={{ xs: 12, md: 4 }}>
                  {select('fileListId', t('modal.fileList'), asList<Named>(files, 'files'), true)}
                </Grid>
              )}
            </Grid>
            {cloud ? (
              // its fields' words are the template picker's, a namespace of their own
              <Suspense fallback={<CircularProgress size={24} aria-label={t('common:buttons.loading')} />}>
                <CampaignTemplate
                  templates={templates.data}
                  loadError={templates.error}
                  chosen={chosen}
                  template={template}
                  values={values}
                  onChoose={chooseTemplate}
                  onValue={setTemplateValue}
                  editable={editable}
                  errors={templateErrs}
                  variableKeys={variableKeys}
                />
              </Suspense>
            ) : (
              <Box>
                <Tabs
                  value={tab}
                  onChange={(_, v) => setTab(v)}
                  variant="scrollable"
                  aria-label={t('modal.messagesHint')}
                >
                  {CAMPAIGN_MESSAGE_FIELDS.map((f, i) => (
                    <Tab
                      key={f}
                      value={f}
                      label={t('modal.messageTab', { n: i + 1 })}
                      sx={form[f].trim() ? { fontWeight: 700 } : undefined}
                    />
                  ))}
                </Tabs>
                <TextField
                  inputRef={messageInput}
                  label={t('modal.message', { n: Number(tab.slice(-1)) })}
                  value={form[tab]}
                  onChange={(e) => set({ [tab]: e.target.value })}
                  multiline
                  minRows={5}
                  fullWidth
                  disabled={!editable}
                  sx={{ mt: 1 }}
                  {...(tab === 'message1' ? fieldError('message1') : {})}
                  helperText={
                    tab === 'message1' && errors.message1 ? fieldError('message1').helperText : t('modal.messagesHint')
                  }
                />
                {editable && <VariableChips keys={variableKeys} onInsert={insertVariable} />}
              </Box>
            )}
            {(!cloud || shownMedia) && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <input
                  ref={fileInput}
                  type="file"
                  hidden
                  aria-label={t('modal.attach')}
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                />
                {editable && !cloud && (
                  <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
                    {t('modal.attach')}
                  </Button>
                )}
                {shownMedia && (
                  <Chip
                    label={shownMedia}
                    onDelete={editable ? () => void removeMedia() : undefined}
                    deleteIcon={<CancelIcon titleAccess={t('modal.removeMedia', { name: shownMedia })} />}
                  />
                )}
                {cloud && shownMedia && (
                  <Typography variant="caption" color="error" role="alert">
                    {t('modal.templateErrors.media')}
                  </Typography>
                )}
              </Stack>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          {campaign && canCancel(campaign.status) && (
            <Button color="warning" onClick={() => void act('cancel')} sx={{ mr: 'auto' }}>
              {t('modal.cancelCampaign')}
            </Button>
          )}
          {campaign && canRestart(campaign.status) && (
            <Button color="primary" onClick={() => void act('restart')} sx={{ mr: 'auto' }}>
              {t('modal.restart')}
            </Button>
          )}
          <Button onClick={onClose}>{editable ? t('common:buttons.cancel') : t('modal.close')}</Button>
          {editable && (
            <Button type="submit" variant="contained" disabled={busy || (cloud && templates.isLoading)}>
              {t('common:buttons.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
