import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
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
import { CAMPAIGN_MESSAGE_FIELDS, CampaignBody, type Campaign } from '#shared/schemas/campaigns';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { asList } from '../realtime/cache';
import { fieldErrors } from '../lib/zod-errors';
import { toLocalInput } from '../schedules/schedule-view';
import { PauseNotice } from './PauseNotice';
import { VariableChips } from './VariableChips';
import {
  MESSAGE_VARIABLES,
  audienceOf,
  canCancel,
  canRestart,
  insertAt,
  isEditable,
  parseSettings,
  variableToken,
} from './campaign-rules';
import type { CampaignSettingsList } from '#shared/schemas/campaigns';

type MessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];
interface Named {
  id: number;
  name: string;
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
  fileListId: '' as number | '',
  scheduledAt: '',
});

/**
 * Add/edit a campaign (management.md "Campaigns", 4, 9): name, connection, audience (contact list or
 * tag), file list, scheduledAt, five message variants with the message variables, and media.
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
  const [audience, setAudience] = useState<'list' | 'tag'>('list');
  const [tab, setTab] = useState<MessageField>('message1');
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const messageInput = useRef<HTMLTextAreaElement>(null);
  const fieldError = useFieldError(errors);
  const editable = isEditable(campaign);

  const { data: whatsapps } = useApi<unknown>(open ? '/whatsapp' : null);
  const { data: lists } = useApi<unknown>(open ? '/contact-lists/list' : null);
  const { data: tags } = useApi<unknown>(open ? '/tags/list' : null);
  const { data: files } = useApi<unknown>(open ? '/files' : null, { limit: 100 });
  const { data: settings } = useApi<CampaignSettingsList>(open ? '/campaign-settings' : null);
  const customVariables = parseSettings(settings).variables;

  useEffect(() => {
    if (!open) return;
    setErrors({});
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
      fileListId: campaign.fileListId ?? '',
      scheduledAt: campaign.scheduledAt ? toLocalInput(campaign.scheduledAt) : '',
    });
  }, [open, campaign]);

  const set = (patch: Partial<ReturnType<typeof emptyForm>>) => setForm((f) => ({ ...f, ...patch }));

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
      tagId: undefined,
      fileListId: form.fileListId || null,
      scheduledAt: form.scheduledAt ? new Date(form.scheduledAt).toISOString() : null,
    };
    const parsed = CampaignBody.safeParse(raw);
    if (!parsed.success) {
      const errs = fieldErrors(parsed.error);
      if (errs.contactListId && audience === 'tag') errs.tagId = errs.contactListId;
      return setErrors(errs);
    }
    setErrors({});
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
    name: 'whatsappId' | 'contactListId' | 'tagId' | 'fileListId',
    label: string,
    options: Named[],
    optional = false,
  ) => (
    <TextField
      select
      label={label}
      value={form[name]}
      onChange={(e) => set({ [name]: e.target.value === '' ? '' : Number(e.target.value) })}
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
              <Grid size={{ xs: 12, md: 4 }}>
                {select('whatsappId', t('modal.whatsapp'), asList<Named>(whatsapps, 'whatsapps'))}
              </Grid>
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
                  onChange={(e) => setAudience(e.target.value as 'list' | 'tag')}
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
                </RadioGroup>
              </Grid>
              <Grid size={{ xs: 12, md: 4 }}>
                {audience === 'list'
                  ? select('contactListId', t('modal.contactList'), asList<Named>(lists, 'records'))
                  : select('tagId', t('modal.tag'), asList<Named>(tags, 'tags'))}
              </Grid>
              <Grid size={{ xs: 12, md: 4 }}>
                {select('fileListId', t('modal.fileList'), asList<Named>(files, 'files'), true)}
              </Grid>
            </Grid>
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
              {editable && (
                <VariableChips
                  keys={[...MESSAGE_VARIABLES, ...customVariables.map((v) => v.key)]}
                  onInsert={insertVariable}
                />
              )}
            </Box>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <input
                ref={fileInput}
                type="file"
                hidden
                aria-label={t('modal.attach')}
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
              {editable && (
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
            </Stack>
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
            <Button type="submit" variant="contained" disabled={busy}>
              {t('common:buttons.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
