import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './mode';

/**
 * The MUI theme. base.css repeats its colours, type and radius for the pages drawn without MUI (the
 * login page); theme.test.ts keeps the two equal.
 */
export function buildTheme(mode: ThemeMode) {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#5ea3f0' : '#2563a8' },
      secondary: { main: '#1e9e6a' },
      background: mode === 'dark' ? { default: '#121417', paper: '#1b1e23' } : { default: '#f2f4f7', paper: '#ffffff' },
    },
    shape: { borderRadius: 8 },
    typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif' },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  });
}

const built: Partial<Record<ThemeMode, Theme>> = {};
/** One theme object per mode, shared by every MuiTheme provider on the page. */
export const themeFor = (mode: ThemeMode) => (built[mode] ??= buildTheme(mode));
