import { MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { fieldValueOf, type CustomField, type CustomFieldValues } from '#shared/schemas/custom-fields';

/** The contacts list's custom-field condition: a field's key and the value it must hold ('' = any value). */
export interface FieldFilter {
  field: string;
  fieldValue: string;
}

/**
 * The list's query for a filter: a value that does not (yet) fit its field, as one being typed, is
 * left out (any value) rather than sent to be refused.
 */
export function fieldFilterQuery(fields: CustomField[], filter: FieldFilter | null) {
  const field = filter && fields.find((f) => f.key === filter.field);
  if (!filter || !field) return {};
  const fits = filter.fieldValue.trim() !== '' && 'value' in fieldValueOf(field, filter.fieldValue, true);
  return { field: filter.field, ...(fits ? { fieldValue: filter.fieldValue.trim() } : {}) };
}

/** Whether a contact (from a realtime event) belongs in a list filtered by `filter`, as the server reads it. */
export function matchesFieldFilter(
  fields: CustomField[],
  filter: FieldFilter | null,
  contact: { customFields?: CustomFieldValues },
): boolean {
  if (!filter) return true;
  const field = fields.find((f) => f.key === filter.field);
  const stored = contact.customFields?.[filter.field];
  if (!field || stored === undefined) return false;
  const wanted = filter.fieldValue.trim() ? fieldValueOf(field, filter.fieldValue, true) : undefined;
  return !wanted || !('value' in wanted) || wanted.value === stored;
}

/**
 * Pick a contact field, then a value suited to its type (a list's options, yes/no, a date, a number,
 * text); no value lists the contacts with any value in the field.
 */
export function ContactFieldFilter({
  fields,
  value,
  onChange,
}: {
  fields: CustomField[];
  value: FieldFilter | null;
  onChange(value: FieldFilter | null): void;
}) {
  const { t } = useTranslation('contactsPage');
  if (!fields.length) return null;
  const field = value ? fields.find((f) => f.key === value.field) : undefined;
  const setValue = (fieldValue: string) => value && onChange({ ...value, fieldValue });
  const common = { size: 'small' as const, sx: { minWidth: 150 } };
  return (
    <Stack direction="row" spacing={1} role="group" aria-label={t('fieldFilter.label')}>
      <TextField
        select
        {...common}
        label={t('fieldFilter.field')}
        value={field?.key ?? ''}
        onChange={(e) => onChange(e.target.value ? { field: e.target.value, fieldValue: '' } : null)}
      >
        <MenuItem value="">{t('fieldFilter.none')}</MenuItem>
        {fields.map((f) => (
          <MenuItem key={f.key} value={f.key}>
            {f.name}
          </MenuItem>
        ))}
      </TextField>
      {field && (field.type === 'list' || field.type === 'checkbox') && (
        <TextField
          select
          {...common}
          label={t('fieldFilter.value')}
          value={value?.fieldValue ?? ''}
          onChange={(e) => setValue(e.target.value)}
        >
          <MenuItem value="">{t('fieldFilter.any')}</MenuItem>
          {field.type === 'list'
            ? field.options.map((o) => (
                <MenuItem key={o} value={o}>
                  {o}
                </MenuItem>
              ))
            : [
                <MenuItem key="true" value="true">
                  {t('fieldFilter.yes')}
                </MenuItem>,
                <MenuItem key="false" value="false">
                  {t('fieldFilter.no')}
                </MenuItem>,
              ]}
        </TextField>
      )}
      {field && field.type !== 'list' && field.type !== 'checkbox' && (
        <TextField
          {...common}
          label={t('fieldFilter.value')}
          placeholder={t('fieldFilter.any')}
          type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
          slotProps={{ inputLabel: { shrink: true } }}
          value={value?.fieldValue ?? ''}
          onChange={(e) => setValue(e.target.value)}
        />
      )}
    </Stack>
  );
}
