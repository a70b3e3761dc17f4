import { Chip } from '@mui/material';
import TimerIcon from '@mui/icons-material/TimerOutlined';
import { useTranslation } from 'react-i18next';
import { activeDeadline, formatLeft, type SlaTicket } from './deadline';
import { useNow } from './useNow';

const COLORS = { normal: 'default', amber: 'warning', red: 'error' } as const;

/**
 * A ticket's service-level countdown (issue 24): the first response while none was sent, then the
 * resolution; amber in the last quarter of the allowance, red once due. Ticks in the browser.
 */
export function SlaCountdown({ ticket }: { ticket: SlaTicket }) {
  const { t } = useTranslation('sla');
  const has = ticket.status !== 'closed' && Boolean(ticket.slaFirstResponseDueAt || ticket.slaResolutionDueAt);
  const now = useNow(has);
  const deadline = has ? activeDeadline(ticket, now) : null;
  if (!deadline) return null;
  const kind = t(`countdown.${deadline.kind}`);
  const time = formatLeft(deadline.left);
  const late = deadline.left <= 0;
  const level = t(
    `countdown.level${deadline.level === 'normal' ? 'Normal' : deadline.level === 'amber' ? 'Amber' : 'Red'}`,
  );
  return (
    <Chip
      role="timer"
      aria-label={t('countdown.label', { kind, level, time: late ? `-${time}` : time })}
      data-level={deadline.level}
      size="small"
      icon={<TimerIcon />}
      color={COLORS[deadline.level]}
      variant={deadline.level === 'normal' ? 'outlined' : 'filled'}
      label={late ? t('countdown.late', { kind, time }) : t('countdown.left', { kind, time })}
    />
  );
}
