import { useEffect, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Grid,
  IconButton,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { PLAN_FEATURES, PLAN_LIMITS, type PlanFeature } from '#shared/plans';
import type { Plan } from '#shared/schemas/accounts';
import { PlanBody } from '#shared/schemas/billing';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { useConfirmedDelete } from '../components/useConfirmedDelete';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { formatBRL } from '../lib/format';
import { fieldErrors } from '../lib/zod-errors';
import { asList, removeById, upsertById } from '../realtime/cache';
import { platformError } from './platform-errors';

type PlanForm = {
  name: string;
  users: string;
  connections: string;
  queues: string;
  value: string;
  aiCallsPerMonth: string;
} & Record<PlanFeature, boolean>;

const emptyForm = (): PlanForm => ({
  name: '',
  users: '0',
  connections: '0',
  queues: '0',
  value: '0',
  aiCallsPerMonth: '0',
  ...(Object.fromEntries(PLAN_FEATURES.map((f) => [f, false])) as Record<PlanFeature, boolean>),
});
const toForm = (p: Plan): PlanForm => ({
  ...emptyForm(),
  ...p,
  users: String(p.users),
  connections: String(p.connections),
  queues: String(p.queues),
  value: String(p.value),
  aiCallsPerMonth: String(p.aiCallsPerMonth ?? 0),
});

/** The super user's plans (management.md "Settings page", 3 "Plan"): every limit and every `use*` flag. */
export function PlansTab() {
  const { t } = useTranslation(['settings', 'common']);
  const { data, mutate } = useApi<unknown>('/plans/all');
  const plans = asList<Plan>(data, 'plans');
  const confirmedDelete = useConfirmedDelete();
  const [editing, setEditing] = useState<{ plan?: Plan } | null>(null);

  const remove = (p: Plan) =>
    confirmedDelete({
      message: t('plans.confirmDelete', { name: p.name }),
      path: `/plans/${p.id}`,
      onDeleted: () => void mutate((d: unknown) => removeById(asList<Plan>(d, 'plans'), p.id), { revalidate: false }),
      deleted: t('plans.deleted'),
    });

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 2 }}>
        <Button variant="contained" onClick={() => setEditing({})}>
          {t('plans.add')}
        </Button>
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={t('tabs.plans')} sx={{ '& th, & td': { px: 1 } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('plans.fields.name')}</TableCell>
              {PLAN_LIMITS.map((l) => (
                <TableCell key={l} align="center">
                  {t(`plans.fields.${l}`)}
                </TableCell>
              ))}
              <TableCell align="center">{t('plans.fields.value')}</TableCell>
              {PLAN_FEATURES.map((f) => (
                <TableCell key={f} align="center">
                  {t(`plans.features.${f}`)}
                </TableCell>
              ))}
              <TableCell align="center">{t('companies.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {plans.map((p) => (
              <TableRow key={p.id} hover>
                <TableCell>{p.name}</TableCell>
                {PLAN_LIMITS.map((l) => (
                  <TableCell key={l} align="center">
                    {p[l]}
                  </TableCell>
                ))}
                <TableCell align="center">{formatBRL(p.value)}</TableCell>
                {PLAN_FEATURES.map((f) => (
                  <TableCell key={f} align="center">
                    {p[f] ? (
                      <CheckIcon fontSize="small" color="success" titleAccess={t('companies.enabled')} />
                    ) : (
                      <CloseIcon fontSize="small" color="disabled" titleAccess={t('companies.disabled')} />
                    )}
                  </TableCell>
                ))}
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton
                    size="small"
                    aria-label={t('plans.edit', { name: p.name })}
                    onClick={() => setEditing({ plan: p })}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('plans.delete', { name: p.name })}
                    onClick={() => void remove(p)}
                  >
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {plans.length === 0 && data !== undefined && (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('plans.empty')}
        </Typography>
      )}
      <PlanModal
        open={editing !== null}
        plan={editing?.plan}
        onClose={() => setEditing(null)}
        onSaved={(saved) =>
          void mutate((d: unknown) => upsertById(asList<Plan>(d, 'plans'), saved, 'end'), { revalidate: false })
        }
      />
    </Box>
  );
}

function PlanModal({
  open,
  plan,
  onClose,
  onSaved,
}: {
  open: boolean;
  plan?: Plan;
  onClose(): void;
  onSaved(plan: Plan): void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const [form, setForm] = useState<PlanForm>(emptyForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setForm(plan ? toForm(plan) : emptyForm());
    setErrors({});
  }, [open, plan]);

  const set = <K extends keyof PlanForm>(key: K, value: PlanForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = PlanBody.safeParse(form);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const saved = plan
        ? await api.put<Plan>(`/plans/${plan.id}`, parsed.data)
        : await api.post<Plan>('/plans', parsed.data);
      notify.success(t('plans.saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      platformError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="plan-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="plan-modal-title">{plan ? t('plans.titleEdit') : t('plans.titleAdd')}</DialogTitle>
        <DialogContent dividers>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 8 }}>
              <TextField
                label={t('plans.fields.name')}
                required
                autoFocus
                fullWidth
                size="small"
                value={form.name}
                onChange={(e) => set('name', e.target.value)}
                {...fieldError('name')}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <TextField
                label={t('plans.fields.value')}
                fullWidth
                size="small"
                value={form.value}
                onChange={(e) => set('value', e.target.value)}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                {...fieldError('value')}
              />
            </Grid>
            {PLAN_LIMITS.map((l) => (
              <Grid key={l} size={{ xs: 12, sm: 4 }}>
                <TextField
                  label={t(`plans.fields.${l}`)}
                  type="number"
                  fullWidth
                  size="small"
                  value={form[l]}
                  onChange={(e) => set(l, e.target.value)}
                  slotProps={{ htmlInput: { min: 0 } }}
                  {...fieldError(l)}
                />
              </Grid>
            ))}
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label={t('plans.fields.aiCallsPerMonth')}
                type="number"
                fullWidth
                size="small"
                value={form.aiCallsPerMonth}
                onChange={(e) => set('aiCallsPerMonth', e.target.value)}
                slotProps={{ htmlInput: { min: 0 } }}
                {...fieldError('aiCallsPerMonth')}
                helperText={fieldError('aiCallsPerMonth').helperText ?? t('plans.aiCallsHint')}
              />
            </Grid>
            {PLAN_FEATURES.map((f) => (
              <Grid key={f} size={{ xs: 12, sm: 6 }}>
                <FormControlLabel
                  control={<Switch checked={form[f]} onChange={(e) => set(f, e.target.checked)} />}
                  label={t(`plans.features.${f}`)}
                />
              </Grid>
            ))}
          </Grid>
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
