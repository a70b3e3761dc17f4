import { Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { variableToken } from './campaign-rules';

/** Clickable message variables (section 9: `{{firstName}}`, `{{name}}`, ...) that insert themselves. */
export function VariableChips({ keys, onInsert }: { keys: readonly string[]; onInsert(key: string): void }) {
  const { t } = useTranslation('campaigns');
  return (
    <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
      <Typography variant="caption" color="text.secondary" sx={{ mr: 1 }}>
        {t('modal.variables')}:
      </Typography>
      {keys.map((key) => (
        <Chip
          key={key}
          size="small"
          variant="outlined"
          label={variableToken(key)}
          title={t(`variables.${key}`, { defaultValue: key })}
          aria-label={t('modal.insertVariable', { variable: variableToken(key) })}
          onClick={() => onInsert(key)}
        />
      ))}
    </Stack>
  );
}
