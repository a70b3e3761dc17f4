import { Checkbox, FormControlLabel, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

export interface SlaPolicyForm {
  slaFirstResponseMinutes: number | '';
  slaResolutionHours: number | '';
  slaBusinessHours: boolean;
}
export const EMPTY_SLA_POLICY: SlaPolicyForm = {
  slaFirstResponseMinutes: '',
  slaResolutionHours: '',
  slaBusinessHours: false,
};

/** The policy as the form holds it, from a queue (absent fields: no targets). */
export const slaPolicyOf = (q: {
  slaFirstResponseMinutes?: number | null;
  slaResolutionHours?: number | null;
  slaBusinessHours?: boolean;
}): SlaPolicyForm => ({
  slaFirstResponseMinutes: q.slaFirstResponseMinutes ?? '',
  slaResolutionHours: q.slaResolutionHours ?? '',
  slaBusinessHours: Boolean(q.slaBusinessHours),
});

/** A queue's service-level policy (issue 24) in the queue modal; validated by the shared QueueBody. */
export function SlaPolicyFields({
  value,
  onChange,
  fieldError,
}: {
  value: SlaPolicyForm;
  onChange(next: SlaPolicyForm): void;
  fieldError(name: string): { error?: boolean; helperText?: string };
}) {
  const { t } = useTranslation('sla');
  const num = (v: string) => (v === '' ? '' : Number(v));
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h3">
        {t('policy.title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label={t('policy.firstResponseMinutes')}
          type="number"
          value={value.slaFirstResponseMinutes}
          onChange={(e) => onChange({ ...value, slaFirstResponseMinutes: num(e.target.value) })}
          helperText={t('policy.hint')}
          {...fieldError('slaFirstResponseMinutes')}
          sx={{ width: { sm: 240 } }}
        />
        <TextField
          label={t('policy.resolutionHours')}
          type="number"
          value={value.slaResolutionHours}
          onChange={(e) => onChange({ ...value, slaResolutionHours: num(e.target.value) })}
          helperText={t('policy.hint')}
          {...fieldError('slaResolutionHours')}
          sx={{ width: { sm: 240 } }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={value.slaBusinessHours}
              onChange={(e) => onChange({ ...value, slaBusinessHours: e.target.checked })}
            />
          }
          label={t('policy.businessHours')}
        />
      </Stack>
    </Stack>
  );
}
