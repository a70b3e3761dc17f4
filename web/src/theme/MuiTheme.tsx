import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
// @mui/system's provider: @mui/material's adds the CSS-variables machinery this theme does not use
import { ThemeProvider } from '@mui/system';
import { useThemeMode } from './ThemeModeProvider';
import { themeFor } from './theme';

/**
 * MUI's theme (in the current mode) for what is built with MUI: the signed-in shell, the signup and
 * reset pages (`baseline`: MUI's CssBaseline too), and the pieces the login page loads on demand
 * (the toasts, the language menu, the new-version notice). The app's root stays free of MUI.
 */
export default function MuiTheme({ children, baseline = false }: { children: ReactNode; baseline?: boolean }) {
  const { mode } = useThemeMode();
  return (
    <ThemeProvider theme={themeFor(mode)}>
      {baseline && <CssBaseline />}
      {children}
    </ThemeProvider>
  );
}
