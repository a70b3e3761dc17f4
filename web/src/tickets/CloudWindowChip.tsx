import { Chip } from '@mui/material';
import TimerIcon from '@mui/icons-material/TimerOutlined';
import { useTranslation } from 'react-i18next';

/** The last hour of a window is shown in amber. */
const AMBER_MS = 3_600_000;

/**
 * Time left in a window, rounded down to the minute: `23 h 59 min` right after the customer wrote
 * (rounding to the nearest would show a whole day), `5 min`, `< 1 min`.
 */
export function formatWindowLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return '< 1 min';
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;
}

/** The window's chip in the ticket's header: time left, amber in the last hour, red once closed. */
export default function CloudWindowChip({ left }: { left: number }) {
  const { t } = useTranslation('tickets');
  const closed = left === 0;
  const label = closed ? t('window.closed') : t('window.left', { time: formatWindowLeft(left) });
  return (
    <Chip
      role="timer"
      aria-label={label}
      size="small"
      icon={<TimerIcon />}
      color={closed ? 'error' : left < AMBER_MS ? 'warning' : 'default'}
      variant={closed || left < AMBER_MS ? 'filled' : 'outlined'}
      label={label}
    />
  );
}
