import { InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

/** The search box of the list screens; callers debounce (500 ms) and lower-case (section 5) what it yields. */
export function SearchField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <TextField
      size="small"
      placeholder={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        htmlInput: { 'aria-label': label, type: 'search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** Search text as the API receives it: trimmed and lower-cased (management.md section 5). */
export const searchParam = (text: string) => text.trim().toLowerCase();
