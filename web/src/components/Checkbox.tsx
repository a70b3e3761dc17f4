import { useEffect, useState, type ComponentType } from 'react';
import type { CheckboxProps } from '@mui/material/Checkbox';

let Loaded: ComponentType<CheckboxProps> | null = null;
/** Fetches MUI's Checkbox; call it once the page has shown so a menu's first opening has it. */
export const loadCheckbox = () =>
  import('@mui/material/Checkbox').then((m) => {
    Loaded = m.default;
  });

/**
 * MUI's Checkbox for the ticket list's filter menus, whose items render only when a menu opens:
 * its code is fetched just after the page shows instead of before (issue 25: the ticket page's
 * first download). Nothing is drawn until it arrives.
 */
export function Checkbox(props: CheckboxProps) {
  const [, setReady] = useState(Loaded !== null);
  useEffect(() => {
    if (!Loaded) void loadCheckbox().then(() => setReady(true));
  }, []);
  return Loaded ? <Loaded {...props} /> : null;
}
