import { iconPath } from './icon-path';
import './icon-button.css';

/**
 * A Material icon drawn as a bare <svg>, for the pages drawn without MUI (issue 25): the same
 * drawing as @mui/icons-material's, whose module source (`?raw`) gives the path, without SvgIcon
 * and the styling engine behind it. `size` in px (MUI: medium 24, large 35).
 */
export function PlainIcon({ source, size = 24 }: { source: string; size?: number }) {
  return (
    <svg className="app-icon" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d={iconPath(source)} />
    </svg>
  );
}
