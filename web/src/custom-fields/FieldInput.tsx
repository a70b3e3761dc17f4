import { Checkbox, FormControlLabel, MenuItem, TextField } from '@mui/material';
import type { CustomField, CustomFieldValue } from '#shared/schemas/custom-fields';

/** The input of one field, by its type; `value` as stored, '' when empty. */
export function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: CustomField;
  value: CustomFieldValue | '' | undefined;
  error?: string;
  onChange(value: CustomFieldValue | ''): void;
}) {
  const label = field.required ? `${field.name} *` : field.name;
  if (field.type === 'checkbox')
    return (
      <FormControlLabel
        control={<Checkbox checked={value === true} onChange={(e) => onChange(e.target.checked)} />}
        label={label}
      />
    );
  const common = {
    label,
    fullWidth: true,
    size: 'small' as const,
    error: Boolean(error),
    helperText: error,
    value: value === undefined ? '' : String(value),
  };
  if (field.type === 'list')
    return (
      <TextField select {...common} onChange={(e) => onChange(e.target.value)}>
        <MenuItem value="">—</MenuItem>
        {field.options.map((o) => (
          <MenuItem key={o} value={o}>
            {o}
          </MenuItem>
        ))}
      </TextField>
    );
  return (
    <TextField
      {...common}
      type={
        field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : field.type === 'link' ? 'url' : 'text'
      }
      slotProps={field.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
      onChange={(e) =>
        onChange(field.type === 'number' && e.target.value !== '' ? Number(e.target.value) : e.target.value)
      }
    />
  );
}
