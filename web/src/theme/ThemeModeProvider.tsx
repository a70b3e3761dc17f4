import { createContext, useContext, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { saveMode, storedMode, type ThemeMode } from './mode';
import './base.css';

const Ctx = createContext<{ mode: ThemeMode; toggle: () => void }>({ mode: 'light', toggle: () => {} });
export const useThemeMode = () => useContext(Ctx);

/**
 * The light/dark mode of the whole app. It loads no MUI (issue 25: the login page is drawn without
 * it): the mode is set on <html data-mode> for base.css, and MuiTheme (theme/MuiTheme.tsx) gives
 * MUI's theme to the parts built with MUI, which load later.
 */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(storedMode);
  useLayoutEffect(() => {
    document.documentElement.dataset.mode = mode;
  }, [mode]);
  const value = useMemo(
    () => ({
      mode,
      toggle: () =>
        setMode((m) => {
          const next = m === 'dark' ? 'light' : 'dark';
          saveMode(next);
          return next;
        }),
    }),
    [mode],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
