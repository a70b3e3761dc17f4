import { useId, type InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value'> & {
  label: string;
  value: string;
  error?: boolean;
  helperText?: string;
};

/**
 * The login form's field: MUI's outlined TextField redrawn in plain HTML and CSS
 * (components/public.css), the label floating into a notch of the outline, so the first page a phone
 * downloads needs no MUI (issue 25). Labelled, described by its error, marked invalid and required.
 */
export function LoginField({ label, error, helperText, required, value, ...input }: Props) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  // the asterisk is drawn, not read: `required` tells assistive technology
  const shown = required ? `${label}\u2009*` : label;
  return (
    <div className="pub-field" data-error={error || undefined} data-filled={value !== '' || undefined}>
      <label className="pub-field-label" htmlFor={id}>
        {label}
        {required && <span aria-hidden="true">{'\u2009*'}</span>}
      </label>
      <div className="pub-field-box">
        <input
          id={id}
          value={value}
          required={required}
          aria-invalid={error || undefined}
          aria-describedby={helperId}
          {...input}
        />
        <fieldset aria-hidden="true">
          <legend>
            <span>{shown}</span>
          </legend>
        </fieldset>
      </div>
      {helperText && (
        <p className="pub-field-helper" id={helperId}>
          {helperText}
        </p>
      )}
    </div>
  );
}
