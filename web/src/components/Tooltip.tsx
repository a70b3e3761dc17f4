import { cloneElement, useEffect, useState, type ComponentType, type ReactElement } from 'react';
import type { TooltipProps } from '@mui/material/Tooltip';

let Loaded: ComponentType<TooltipProps> | null = null;
const load = () =>
  import('@mui/material/Tooltip').then((m) => {
    Loaded = m.default;
  });

/**
 * MUI's Tooltip, with its code (and Popper's) fetched just after the page shows instead of before
 * (issue 25: the ticket page's first download). Until it arrives the child is drawn as the tooltip
 * would name it: `aria-label` = the title, unless the child names itself.
 */
export function Tooltip(props: TooltipProps) {
  const [, setReady] = useState(Loaded !== null);
  useEffect(() => {
    if (!Loaded) void load().then(() => setReady(true));
  }, []);
  if (Loaded) return <Loaded {...props} />;
  const { title, describeChild, children } = props;
  if (describeChild || typeof title !== 'string') return children;
  const child = children as ReactElement<{ 'aria-label'?: string }>;
  return cloneElement(child, { 'aria-label': child.props['aria-label'] ?? title });
}
