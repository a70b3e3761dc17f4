import { useId } from 'react';
import { FormControl, FormHelperText, InputLabel, OutlinedInput, type OutlinedInputProps } from '@mui/material';

type Props = Omit<OutlinedInputProps, 'label' | 'error'> & { label: string; error?: boolean; helperText?: string };

/**
 * The login form's outlined field, built from TextField's parts: TextField also brings its select
 * mode (Select, NativeSelect, the filled and standard inputs), which the first page a phone
 * downloads never shows (issue 25).
 */
export function LoginField({ label, error, helperText, required, ...input }: Props) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  return (
    <FormControl variant="outlined" fullWidth required={required} error={error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      {/* the notch in the outline is as wide as the label, asterisk included (as TextField does) */}
      <OutlinedInput id={id} label={required ? `${label}\u2009*` : label} aria-describedby={helperId} {...input} />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
