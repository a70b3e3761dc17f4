import { lazy, Suspense } from 'react';
import { TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { asList } from '../realtime/cache';
import { ticketActions } from './api';
import { TagChip } from './TagChip';
import type { Tag, Ticket } from './types';

// Autocomplete (and Popper) load just after the ticket shows (issue 25); meanwhile the same field
// shows the ticket's tags, read-only
const TagAutocomplete = lazy(() => import('./TagAutocomplete'));

/** Tags of the open ticket (`POST /tags/sync` with ticketId and tags). */
export function TagPicker({ ticket, onChange }: { ticket: Ticket; onChange(tags: Tag[]): void }) {
  const { t } = useTranslation('tickets');
  const { data } = useApi<unknown>('/tags/list');
  const options = asList<Tag>(data, 'tags');
  const value = options.filter((o) => (ticket.tags ?? []).some((x) => x.id === o.id));
  const pick = async (tags: Tag[]) => {
    onChange(tags);
    try {
      await ticketActions.syncTags(
        ticket.id,
        tags.map(({ id }) => ({ id })),
      );
    } catch (err) {
      toastError(err);
    }
  };
  const label = t('header.tags');
  const chips = value.map((tag) => <TagChip key={tag.id} tag={tag} />);
  return (
    <Suspense
      fallback={
        <TextField
          size="small"
          fullWidth
          placeholder={value.length ? undefined : label}
          slotProps={{ input: { readOnly: true, startAdornment: chips }, htmlInput: { 'aria-label': label } }}
          sx={{ px: 1, py: 0.5 }}
        />
      }
    >
      <TagAutocomplete options={options} value={value} label={label} onPick={pick} />
    </Suspense>
  );
}
