import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ASSIGNMENT_MODES, QueueBody, type AssignmentMode, type Queue } from '#shared/schemas/queues';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { useAuth } from '../auth/AuthProvider';
import { asList } from '../realtime/cache';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { useSettings } from '../settings/useSettings';
import { ColorPalette } from './ColorPalette';
import { HoursEditor } from './HoursEditor';
import { OptionsEditor } from './OptionsEditor';
import { firstFreeColor } from './palette';
import { invalidHours, weekOf, type DayHours } from './hours';
import { EMPTY_SLA_POLICY, SlaPolicyFields, slaPolicyOf, type SlaPolicyForm } from '../sla/SlaPolicyFields';
import { RecordFields, useEditedRecord } from '../components/EditedRecord';

interface Form {
  name: string;
  color: string;
  orderQueue: number | '';
  greetingMessage: string;
  outOfHoursMessage: string;
  assignment: AssignmentMode;
}

/**
 * Add/edit a queue (management.md "Queues"): the queue-data tab with the colour palette and the
 * chatbot option tree, and the attendance-hours tab only when the setting scheduleType is 'queue'.
 * A new queue stays open after its first save so its chatbot options can be added.
 */
export function QueueModal({
  open,
  queueId,
  takenColors,
  onClose,
}: {
  open: boolean;
  queueId?: number;
  takenColors: string[];
  onClose(): void;
}) {
  const { t } = useTranslation(['queues', 'common']);
  const { value } = useSettings(open);
  const withHours = value('scheduleType') === 'queue';
  const [id, setId] = useState<number | undefined>(queueId);
  const [tab, setTab] = useState(0);
  const [form, setForm] = useState<Form>({
    name: '',
    color: '',
    orderQueue: '',
    greetingMessage: '',
    outOfHoursMessage: '',
    assignment: 'manual',
  });
  const [week, setWeek] = useState<DayHours[]>(weekOf(undefined));
  const [promptId, setPromptId] = useState<number | null>(null);
  const [integrationId, setIntegrationId] = useState<number | null>(null);
  const [sla, setSla] = useState<SlaPolicyForm>(EMPTY_SLA_POLICY);
  // a queue can hand its tickets to an AI prompt or an integration (plan flags useOpenAi, useIntegrations)
  const { plan } = useAuth();
  const { data: promptData } = useApi<unknown>(open && plan?.useOpenAi ? '/prompt' : null);
  const { data: integrationData } = useApi<unknown>(
    open && plan?.useIntegrations ? '/queueIntegration?limit=100' : null,
  );
  const prompts = asList<{ id: number; name: string }>(promptData, 'prompts');
  const integrations = asList<{ id: number; name: string; type: string }>(integrationData, 'queueIntegrations');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);
  // takenColors only seeds a new queue's colour on opening: a live list change must not reset the form.
  const takenColorsRef = useRef(takenColors);
  takenColorsRef.current = takenColors;

  useEffect(() => {
    if (!open) return;
    setId(queueId);
    setTab(0);
    setErrors({});
    if (!queueId) {
      setForm({
        name: '',
        color: firstFreeColor(takenColorsRef.current),
        orderQueue: '',
        greetingMessage: '',
        outOfHoursMessage: '',
        assignment: 'manual',
      });
      setWeek(weekOf(undefined));
      setPromptId(null);
      setIntegrationId(null);
      setSla(EMPTY_SLA_POLICY);
    }
  }, [open, queueId]);
  const loading = useEditedRecord<Queue>(open, queueId ? `/queue/${queueId}` : null, (q) => {
    setForm({
      name: q.name,
      color: q.color,
      orderQueue: q.orderQueue ?? '',
      greetingMessage: q.greetingMessage ?? '',
      outOfHoursMessage: q.outOfHoursMessage ?? '',
      assignment: q.assignment ?? 'manual',
    });
    setWeek(weekOf(q.schedules));
    setPromptId(q.promptId ?? null);
    setIntegrationId(q.integrationId ?? null);
    setSla(slaPolicyOf(q));
  });

  const set = <K extends keyof Form>(key: K, v: Form[K]) => setForm((f) => ({ ...f, [key]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = QueueBody.safeParse({ ...form, ...sla, schedules: week, promptId, integrationId });
    if (!parsed.success) {
      setTab(0);
      return setErrors(fieldErrors(parsed.error));
    }
    if (withHours && invalidHours(week).length) return setTab(1);
    setBusy(true);
    try {
      if (id) {
        await api.put(`/queue/${id}`, parsed.data);
        notify.success(t('saved'));
        onClose();
      } else {
        const created = await api.post<Queue>('/queue', parsed.data);
        notify.success(t('saved'));
        setId(created.id);
      }
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" scroll="paper" aria-labelledby="queue-modal-title">
      <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
        <DialogTitle id="queue-modal-title">{id ? t('modal.titleEdit') : t('modal.titleAdd')}</DialogTitle>
        <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}>
          <Tab label={t('modal.tabData')} />
          {withHours && <Tab label={t('modal.tabHours')} />}
        </Tabs>
        <DialogContent>
          <RecordFields loading={loading}>
            <Box hidden={tab !== 0}>
              <Stack spacing={2} sx={{ pt: 1 }}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
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
                    label={t('modal.color')}
                    value={form.color}
                    onChange={(e) => set('color', e.target.value)}
                    {...fieldError('color')}
                    required
                    sx={{ width: { sm: 160 } }}
                    slotProps={{
                      input: {
                        startAdornment: (
                          <Box
                            sx={{
                              width: 18,
                              height: 18,
                              borderRadius: 0.5,
                              bgcolor: form.color || 'transparent',
                              mr: 1,
                              flexShrink: 0,
                              border: 1,
                              borderColor: 'divider',
                            }}
                          />
                        ),
                      },
                    }}
                  />
                  <TextField
                    label={t('modal.orderQueue')}
                    type="number"
                    value={form.orderQueue}
                    onChange={(e) => set('orderQueue', e.target.value === '' ? '' : Number(e.target.value))}
                    {...fieldError('orderQueue')}
                    sx={{ width: { sm: 180 } }}
                  />
                </Stack>
                <ColorPalette value={form.color} onChange={(c) => set('color', c)} taken={takenColors} />
                <TextField
                  select
                  label={t('modal.assignment')}
                  value={form.assignment}
                  onChange={(e) => set('assignment', e.target.value as AssignmentMode)}
                  helperText={t(`modal.assignmentHelp.${form.assignment}`)}
                  {...fieldError('assignment')}
                  fullWidth
                >
                  {ASSIGNMENT_MODES.map((mode) => (
                    <MenuItem key={mode} value={mode}>
                      {t(`modal.assignmentModes.${mode}`)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  label={t('modal.greetingMessage')}
                  value={form.greetingMessage}
                  onChange={(e) => set('greetingMessage', e.target.value)}
                  {...fieldError('greetingMessage')}
                  multiline
                  minRows={3}
                  fullWidth
                />
                {(plan?.useOpenAi || plan?.useIntegrations) && (
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    {plan?.useOpenAi && (
                      <TextField
                        select
                        label={t('modal.prompt')}
                        value={promptId ?? ''}
                        onChange={(e) => setPromptId(e.target.value === '' ? null : Number(e.target.value))}
                        fullWidth
                      >
                        <MenuItem value="">{t('modal.none')}</MenuItem>
                        {prompts.map((p) => (
                          <MenuItem key={p.id} value={p.id}>
                            {p.name}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                    {plan?.useIntegrations && (
                      <TextField
                        select
                        label={t('modal.integration')}
                        value={integrationId ?? ''}
                        onChange={(e) => setIntegrationId(e.target.value === '' ? null : Number(e.target.value))}
                        fullWidth
                      >
                        <MenuItem value="">{t('modal.none')}</MenuItem>
                        {integrations.map((i) => (
                          <MenuItem key={i.id} value={i.id}>
                            {i.name} ({i.type})
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  </Stack>
                )}
                <SlaPolicyFields value={sla} onChange={setSla} fieldError={fieldError} />
                <Divider />
                {id ? (
                  <OptionsEditor queueId={id} />
                ) : (
                  <Typography color="text.secondary">{t('modal.optionsAfterSave')}</Typography>
                )}
              </Stack>
            </Box>
            {withHours && (
              <Box hidden={tab !== 1}>
                {invalidHours(week).length > 0 && (
                  <Alert severity="error" sx={{ mb: 1 }}>
                    {t('modal.hoursInvalid')}
                  </Alert>
                )}
                <HoursEditor week={week} onChange={setWeek} />
                <TextField
                  label={t('modal.outOfHoursMessage')}
                  value={form.outOfHoursMessage}
                  onChange={(e) => set('outOfHoursMessage', e.target.value)}
                  {...fieldError('outOfHoursMessage')}
                  multiline
                  minRows={2}
                  fullWidth
                  sx={{ mt: 2 }}
                />
              </Box>
            )}
          </RecordFields>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{id && !queueId ? t('common:buttons.close') : t('common:buttons.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || loading}>
            {t('common:buttons.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
