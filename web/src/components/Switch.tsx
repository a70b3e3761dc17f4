import type { SwitchProps } from '@mui/material/Switch';
import { afterPaint, useAfterPaint } from './after-paint';

const mui = afterPaint<SwitchProps>(() => import('@mui/material/Switch'));

/**
 * MUI's Switch, fetched just after the page shows (the composer's signature switch and the list's
 * "show all" use it). Nothing is drawn until it arrives, a moment after the first paint; its label
 * is drawn at once.
 */
export function Switch(props: SwitchProps) {
  const Loaded = useAfterPaint(mui);
  return Loaded ? <Loaded {...props} /> : null;
}
