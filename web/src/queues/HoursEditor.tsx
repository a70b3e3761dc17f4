import { Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { HHMM } from '#shared/business-hours';
import { maskHHMM, type DayHours } from './hours';

/** One row per weekday with start and end as HH:MM (queues' attendance hours and the company's business hours). */
export function HoursEditor({ week, onChange }: { week: DayHours[]; onChange(next: DayHours[]): void }) {
  const { t } = useTranslation('queues');
  const set = (i: number, key: 'startTime' | 'endTime', value: string) =>
    onChange(week.map((d, j) => (j === i ? { ...d, [key]: maskHHMM(value) } : d)));
  const bad = (v: string) => v !== '' && !HHMM.test(v);
  return (
    <Stack spacing={1.5} sx={{ pt: 1 }}>
      {week.map((d, i) => {
        const day = t(`hours.days.${d.weekdayEn}`);
        return (
          <Stack key={d.weekdayEn} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Typography sx={{ width: 140, flexShrink: 0 }}>{day}</Typography>
            <TextField
              size="small"
              label={t('hours.start', { day })}
              value={d.startTime}
              onChange={(e) => set(i, 'startTime', e.target.value)}
              error={bad(d.startTime)}
              placeholder="HH:MM"
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
            />
            <TextField
              size="small"
              label={t('hours.end', { day })}
              value={d.endTime}
              onChange={(e) => set(i, 'endTime', e.target.value)}
              error={bad(d.endTime)}
              placeholder="HH:MM"
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
            />
          </Stack>
        );
      })}
    </Stack>
  );
}
