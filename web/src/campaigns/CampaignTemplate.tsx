import { useRef } from 'react';
import { Alert, CircularProgress, ListItemText, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isSendableTemplate, type WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { errorMessage } from '../api/toast-error';
import { parameterKey, type ParameterValues } from '../templates/template-rules';
import { TemplateChips, TemplateFields, TemplatePreview } from '../templates/TemplateParts';
import { VariableChips } from './VariableChips';
import { insertAt, templateErrors, variableToken, type TemplateChoice, type TemplateError } from './campaign-rules';

interface Props {
  /** all of the connection's templates (undefined: loading) */
  templates: WhatsappTemplate[] | undefined;
  loadError: unknown;
  chosen: TemplateChoice | null;
  /** the chosen one in `templates` */
  template: WhatsappTemplate | null;
  values: ParameterValues;
  onChoose(template: WhatsappTemplate): void;
  onValue(key: string, value: string): void;
  editable: boolean;
  /** the last save's errors (templateErrors) */
  errors: Record<string, TemplateError>;
  /** the message and campaign variables offered to the fields */
  variableKeys: readonly string[];
}

/**
 * The campaign form's message on a Cloud API connection: one of its approved templates, a field per
 * header and body variable (the message and campaign variables are filled per contact by the server)
 * and the preview. A saved template that is no longer approved stays shown, marked.
 */
export function CampaignTemplate({
  templates,
  loadError,
  chosen,
  template,
  values,
  onChoose,
  onValue,
  editable,
  errors,
  variableKeys,
}: Props) {
  const { t } = useTranslation(['campaigns', 'common']);
  const focused = useRef<{ key: string; input?: HTMLInputElement } | null>(null);

  if (loadError)
    return (
      <Alert severity="error" role="alert">
        {errorMessage(loadError) ?? t('errors:ERR_INTERNAL_SERVER_ERROR')}
      </Alert>
    );
  if (!templates) return <CircularProgress size={24} aria-label={t('common:buttons.loading')} />;

  const sendable = templates.filter(isSendableTemplate);
  // a saved template paused or rejected since is still shown (not offered) so the form says which it was
  const options = template && !isSendableTemplate(template) ? [...sendable, template] : sendable;
  const live = editable ? templateErrors(chosen, template, {}, false).template : undefined;
  const problem = errors.template ?? (live === 'unavailable' ? live : undefined);
  const variableError = (key: string) => (errors[key] ? t(`modal.templateErrors.${errors[key]}`) : undefined);

  // a clicked variable goes where the caret was in the field last focused, else at the end of the first
  const insertVariable = (variable: string) => {
    const keys = template?.parameters.map(parameterKey) ?? [];
    const target =
      focused.current && keys.includes(focused.current.key) ? focused.current : { key: keys[0], input: undefined };
    if (!target.key) return;
    const { input } = target;
    const { text, caret } = insertAt(
      values[target.key] ?? '',
      variableToken(variable),
      input?.selectionStart ?? undefined,
      input?.selectionEnd ?? undefined,
    );
    onValue(target.key, text);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(caret, caret);
    });
  };

  return (
    <Stack sx={{ gap: 2 }}>
      <TextField
        select
        label={t('modal.template')}
        value={template ? template.id : ''}
        onChange={(e) => {
          const next = sendable.find((x) => x.id === e.target.value);
          focused.current = null;
          if (next) onChoose(next);
        }}
        disabled={!editable}
        required
        fullWidth
        error={!!problem}
        helperText={
          problem
            ? t(`modal.templateErrors.${problem}`, { name: chosen?.name, language: chosen?.language })
            : t('modal.templateHint')
        }
        slotProps={{
          select: {
            renderValue: (id) => {
              const shown = options.find((x) => x.id === id);
              return shown ? `${shown.name} · ${shown.language}` : '';
            },
          },
        }}
      >
        {options.map((x) => (
          <MenuItem key={x.id} value={x.id} disabled={!isSendableTemplate(x)} sx={{ gap: 1 }}>
            <ListItemText
              primary={x.name}
              secondary={x.body}
              slotProps={{
                primary: { sx: { fontWeight: 600, wordBreak: 'break-all' } },
                secondary: { noWrap: true },
              }}
              sx={{ minWidth: 0 }}
            />
            <TemplateChips template={x} />
          </MenuItem>
        ))}
      </TextField>
      {sendable.length === 0 && <Alert severity="info">{t('modal.noTemplates')}</Alert>}
      {template && (
        <Stack direction={{ xs: 'column', md: 'row' }} sx={{ gap: 2, alignItems: 'flex-start' }}>
          <Stack sx={{ gap: 1.5, flex: 1, width: '100%' }}>
            <TemplateFields
              template={template}
              values={values}
              onChange={onValue}
              disabled={!editable}
              errorText={variableError}
              onFieldFocus={(key, input) => {
                focused.current = { key, input };
              }}
            />
            {editable && template.parameters.length > 0 && (
              <VariableChips keys={variableKeys} onInsert={insertVariable} />
            )}
          </Stack>
          <TemplatePreview template={template} values={values} />
        </Stack>
      )}
    </Stack>
  );
}
