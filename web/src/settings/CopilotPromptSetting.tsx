import { MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { useApi } from '../api/swr';

interface Props {
  value: string;
  disabled: boolean;
  onChange(next: string): void;
}

/**
 * The copilot's prompt (issue 39): one of the company's AI prompts, or none (each ticket's queue's
 * prompt answers). The prompts are listed only for a plan with AI.
 */
export function CopilotPromptSetting({ value, disabled, onChange }: Props) {
  const { t } = useTranslation('settings');
  const { plan } = useAuth();
  const { data } = useApi<{ prompts: { id: number; name: string }[] }>(plan?.useOpenAi ? '/prompt' : null);
  const prompts = data?.prompts ?? [];
  // a chosen prompt not listed (yet, or deleted since) is still shown by its number
  const known = value === '' || prompts.some((p) => String(p.id) === value);
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={t('keys.copilotPromptId')}
      value={value}
      disabled={disabled || !plan?.useOpenAi}
      onChange={(e) => onChange(e.target.value)}
    >
      <MenuItem value="">{t('copilotPromptNone')}</MenuItem>
      {prompts.map((p) => (
        <MenuItem key={p.id} value={String(p.id)}>
          {p.name}
        </MenuItem>
      ))}
      {!known && <MenuItem value={value}>#{value}</MenuItem>}
    </TextField>
  );
}
