/**
 * The light/dark choice (attendance.md section 1), without MUI: the login page reads it and paints
 * with plain CSS (base.css) before MUI's theme has loaded (issue 25).
 */
export type ThemeMode = 'light' | 'dark';

const STORAGE_KEY = 'preferredTheme';

/** Stored preferredTheme, else the system's dark preference. */
export function initialMode(stored: string | null, systemDark: boolean): ThemeMode {
  if (stored === 'light' || stored === 'dark') return stored;
  return systemDark ? 'dark' : 'light';
}

export const storedMode = () =>
  initialMode(
    localStorage.getItem(STORAGE_KEY),
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches,
  );

export const saveMode = (mode: ThemeMode) => localStorage.setItem(STORAGE_KEY, mode);
