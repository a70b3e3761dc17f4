import { Autocomplete, Chip, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { asList } from '../realtime/cache';
import { ticketActions } from './api';
import type { Tag, Ticket } from './types';

/** Tags of the open ticket (`POST /tags/sync` with ticketId and tags). */
export function TagPicker({ ticket, onChange }: { ticket: Ticket; onChange(tags: Tag[]): void }) {
  const { t } = useTranslation('tickets');
  const { data } = useApi<unknown>('/tags/list');
  const options = asList<Tag>(data, 'tags');
  const value = options.filter((o) => (ticket.tags ?? []).some((x) => x.id === o.id));
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={value}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={async (_, tags) => {
        onChange(tags);
        try {
          await ticketActions.syncTags(
            ticket.id,
            tags.map(({ id }) => ({ id })),
          );
        } catch (err) {
          toastError(err);
        }
      }}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => (
          <Chip
            {...getItemProps({ index })}
            key={tag.id}
            size="small"
            label={tag.name}
            sx={{ bgcolor: tag.color, color: '#fff' }}
          />
        ))
      }
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder={value.length ? undefined : t('header.tags')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': t('header.tags') },
          }}
        />
      )}
      sx={{ px: 1, py: 0.5 }}
    />
  );
}
