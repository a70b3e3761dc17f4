import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { TagChip } from './TagChip';
import type { Tag } from './types';

/** TagPicker's field: pick the ticket's tags from the company's (loaded after the ticket shows). */
export default function TagAutocomplete({
  options,
  value,
  label,
  onPick,
}: {
  options: Tag[];
  value: Tag[];
  label: string;
  onPick(tags: Tag[]): void;
}) {
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={value}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, tags) => onPick(tags)}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => <TagChip {...getItemProps({ index })} key={tag.id} tag={tag} />)
      }
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder={value.length ? undefined : label}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': label },
          }}
        />
      )}
      sx={{ px: 1, py: 0.5 }}
    />
  );
}
