import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** "Ana is typing…" under the ticket's name while someone else types in it. */
export function TypingLine({ typists }: { typists: string[] }) {
  const { t } = useTranslation('tickets');
  if (!typists.length) return null;
  return (
    <Typography variant="caption" color="primary" noWrap component="p" role="status">
      {t('presence.typing', { count: typists.length, names: typists.join(', ') })}
    </Typography>
  );
}
