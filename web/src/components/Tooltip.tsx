import { cloneElement, type ReactElement } from 'react';
import type { TooltipProps } from '@mui/material/Tooltip';
import { afterPaint, useAfterPaint } from './after-paint';

const mui = afterPaint<TooltipProps>(() => import('@mui/material/Tooltip'));

/**
 * MUI's Tooltip, with its code (and Popper's) fetched just after the page shows. Until it arrives
 * the child is drawn as the tooltip would name it: `aria-label` = the title, unless the child names
 * itself.
 */
export function Tooltip(props: TooltipProps) {
  const Loaded = useAfterPaint(mui);
  if (Loaded) return <Loaded {...props} />;
  const { title, describeChild, children } = props;
  if (describeChild || typeof title !== 'string') return children;
  const child = children as ReactElement<{ 'aria-label'?: string }>;
  return cloneElement(child, { 'aria-label': child.props['aria-label'] ?? title });
}
