import { useTranslation } from 'react-i18next';

/** Turns the shared schemas' message keys (required, short, long, email, invalid) into text. */
export function useFieldError(errors: Record<string, string>) {
  const { t } = useTranslation();
  return (field: string) => {
    const key = errors[field];
    if (!key) return { error: false as const };
    const known = ['required', 'short', 'long', 'email', 'invalid', 'passwordMismatch', 'strongPassword'];
    return { error: true as const, helperText: known.includes(key) ? t(`validation.${key}`) : t('validation.invalid') };
  };
}
