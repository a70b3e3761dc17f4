import type { ReactNode } from 'react';
import { Button } from '@mui/material';
import { SearchField } from './SearchField';

/** The actions row of a searchable list screen: its search box, extra actions, and the add button. */
export function ListToolbar({
  searchLabel,
  search,
  onSearch,
  addLabel,
  onAdd,
  children,
}: {
  searchLabel: string;
  search: string;
  onSearch: (value: string) => void;
  addLabel: string;
  onAdd: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      <SearchField label={searchLabel} value={search} onChange={onSearch} />
      {children}
      <Button variant="contained" onClick={onAdd}>
        {addLabel}
      </Button>
    </>
  );
}
