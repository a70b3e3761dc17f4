import type { FocusEvent } from 'react';
import { Box, Chip, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { renderTemplate, type WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { formatted } from '../messages/formatted';
import { parameterKey, valuesByComponent, type ParameterValues } from './template-rules';

/**
 * The pieces every template chooser shows (the ticket's picker, the campaign form): a template's
 * language and category, one field per variable, and the message as the customer will read it.
 */

export function TemplateChips({ template }: { template: WhatsappTemplate }) {
  const { t } = useTranslation('templates');
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexShrink: 0 }}>
      <Chip size="small" variant="outlined" label={template.language} />
      <Chip
        size="small"
        variant="outlined"
        label={t(`category.${template.category}`, { defaultValue: template.category })}
      />
    </Stack>
  );
}

/** One field per header and body variable, keyed by `parameterKey` (a header and the body may both have a `{{1}}`). */
export function TemplateFields({
  template,
  values,
  onChange,
  disabled,
  errorText,
  onFieldFocus,
}: {
  template: WhatsappTemplate;
  values: ParameterValues;
  onChange(key: string, value: string): void;
  disabled?: boolean;
  /** a field's error, if any */
  errorText?(key: string): string | undefined;
  /** the field last focused: where a clicked message variable goes */
  onFieldFocus?(key: string, input: HTMLInputElement): void;
}) {
  const { t } = useTranslation('templates');
  return template.parameters.map((p) => {
    const key = parameterKey(p);
    const error = errorText?.(key);
    return (
      <TextField
        key={key}
        size="small"
        fullWidth
        label={t(`picker.field.${p.component}`, { variable: `{{${p.name}}}` })}
        placeholder={p.example}
        value={values[key] ?? ''}
        onChange={(e) => onChange(key, e.target.value)}
        onFocus={onFieldFocus && ((e: FocusEvent<HTMLInputElement>) => onFieldFocus(key, e.target))}
        disabled={disabled}
        error={!!error}
        helperText={error}
        slotProps={{ htmlInput: { maxLength: 1024 } }}
      />
    );
  });
}

/** The message as the customer will read it: the values typed so far, the others as written. */
export function TemplatePreview({ template, values }: { template: WhatsappTemplate; values: ParameterValues }) {
  const { t } = useTranslation('templates');
  const text = renderTemplate(template, valuesByComponent(template.parameters, values));
  return (
    <Box component="section" aria-label={t('picker.preview')} sx={{ flex: 1, width: '100%' }}>
      <Typography variant="overline" color="text.secondary">
        {t('picker.preview')}
      </Typography>
      <Box
        sx={{
          p: 1.5,
          borderRadius: 2,
          bgcolor: (th) => (th.palette.mode === 'dark' ? '#0b141a' : '#efeae2'),
        }}
      >
        <Box
          data-testid="template-preview"
          sx={{
            ml: 'auto',
            maxWidth: 420,
            px: 1.25,
            py: 0.75,
            borderRadius: 2,
            boxShadow: 1,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: (th) => (th.palette.mode === 'dark' ? '#005c4b' : '#dcf8c6'),
          }}
        >
          {formatted(text)}
        </Box>
        {template.buttons.length > 0 && (
          <Stack sx={{ ml: 'auto', maxWidth: 420, mt: 0.5, gap: 0.5 }}>
            {template.buttons.map((label, i) => (
              <Box
                // biome-ignore lint/suspicious/noArrayIndexKey: a template's buttons are fixed and may share a label
                key={i}
                sx={{
                  textAlign: 'center',
                  py: 0.5,
                  borderRadius: 2,
                  bgcolor: 'background.paper',
                  color: 'info.main',
                  fontSize: 14,
                }}
              >
                {label}
              </Box>
            ))}
          </Stack>
        )}
      </Box>
    </Box>
  );
}
