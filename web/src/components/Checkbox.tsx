import type { CheckboxProps } from '@mui/material/Checkbox';
import { afterPaint, useAfterPaint } from './after-paint';

const mui = afterPaint<CheckboxProps>(() => import('@mui/material/Checkbox'));

/** Fetches MUI's Checkbox; call it once the page has shown so a menu's first opening has it. */
export const loadCheckbox = mui.load;

/**
 * MUI's Checkbox for the ticket list's filter menus, whose items render only when a menu opens:
 * fetched just after the page shows. Nothing is drawn until it arrives.
 */
export function Checkbox(props: CheckboxProps) {
  const Loaded = useAfterPaint(mui);
  return Loaded ? <Loaded {...props} /> : null;
}
