import { createTheme, type PaletteMode } from '@mui/material/styles';

const STORAGE_KEY = 'preferredTheme';

/** Stored preferredTheme, else the system's dark preference (attendance.md section 1). */
export function initialMode(stored: string | null, systemDark: boolean): PaletteMode {
  if (stored === 'light' || stored === 'dark') return stored;
  return systemDark ? 'dark' : 'light';
}

export const storedMode = () =>
  initialMode(
    localStorage.getItem(STORAGE_KEY),
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches,
  );

export const saveMode = (mode: PaletteMode) => localStorage.setItem(STORAGE_KEY, mode);

export function buildTheme(mode: PaletteMode) {
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
