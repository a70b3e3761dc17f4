import { useEffect, useState, type ComponentType } from 'react';
import type { SwitchProps } from '@mui/material/Switch';

let Loaded: ComponentType<SwitchProps> | null = null;
const loadSwitch = () =>
  import('@mui/material/Switch').then((m) => {
    Loaded = m.default;
  });

/**
 * MUI's Switch, fetched just after the page shows (issue 25: the ticket page's first download; the
 * composer's signature switch and the list's "show all" use it). Nothing is drawn until it arrives,
 * a moment after the first paint; its label is drawn at once.
 */
export function Switch(props: SwitchProps) {
  const [, setReady] = useState(Loaded !== null);
  useEffect(() => {
    if (!Loaded) void loadSwitch().then(() => setReady(true));
  }, []);
  return Loaded ? <Loaded {...props} /> : null;
}
