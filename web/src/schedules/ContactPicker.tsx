import { useEffect, useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DEBOUNCE_MS } from '#shared/constants';
import { api } from '../api/client';
import { useDebouncedValue } from '../lib/debounce';
import { asList } from '../realtime/cache';
import { shownNumber } from '../contacts/contact-number';

export interface PickedContact {
  id: number;
  name: string;
  number: string;
}

/** A contact search box (500 ms debounce) for forms that address one contact. */
export function ContactPicker({
  value,
  onChange,
  label,
  placeholder,
  noOptionsText,
  disabled,
  error,
  helperText,
}: {
  value: PickedContact | null;
  onChange(c: PickedContact | null): void;
  label: string;
  placeholder: string;
  noOptionsText: string;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
}) {
  const { t } = useTranslation('common');
  const [text, setText] = useState('');
  const [options, setOptions] = useState<PickedContact[]>([]);
  const search = useDebouncedValue(text, DEBOUNCE_MS);

  useEffect(() => {
    if (disabled) return;
    let cancelled = false;
    api
      .get<unknown>('/contacts', { searchParam: search.trim().toLowerCase() })
      .then((d) => !cancelled && setOptions(asList<PickedContact>(d, 'contacts')))
      .catch(() => !cancelled && setOptions([]));
    return () => {
      cancelled = true;
    };
  }, [search, disabled]);

  return (
    <Autocomplete
      value={value}
      options={value && !options.some((o) => o.id === value.id) ? [value, ...options] : options}
      getOptionLabel={(c) => `${c.name} (${shownNumber(c.number, t)})`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      onChange={(_, c) => onChange(c)}
      onInputChange={(_, v, reason) => reason === 'input' && setText(v)}
      noOptionsText={noOptionsText}
      disabled={disabled}
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder={placeholder} required error={error} helperText={helperText} />
      )}
    />
  );
}
