import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './mode';

/** Every MUI duration at zero: dialogs, menus, drawers and toasts appear and leave at once. */
const NO_MOTION = {
  duration: {
    shortest: 0,
    shorter: 0,
    short: 0,
    standard: 0,
    complex: 0,
    enteringScreen: 0,
    leavingScreen: 0,
  },
};

/** Whether this browser asks for less motion (the system's "reduce motion" setting). */
export const prefersReducedMotion = () =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/**
 * The MUI theme. base.css repeats its colours, type and radius for the pages drawn without MUI (the
 * login page); theme.test.ts keeps the two equal. `reducedMotion` (the user's system asks for less
 * motion, WCAG 2.3.3): dialogs, menus and drawers without transitions, buttons without ripples.
 * Spinners keep turning: they say something is under way.
 */
export function buildTheme(mode: ThemeMode, reducedMotion = false) {
  return createTheme({
    ...(reducedMotion && { transitions: NO_MOTION }),
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
      ...(reducedMotion && { MuiButtonBase: { defaultProps: { disableRipple: true } } }),
    },
  });
}

const built: Partial<Record<ThemeMode, Theme>> = {};
/** One theme object per mode, shared by every MuiTheme provider on the page. */
export const themeFor = (mode: ThemeMode) => (built[mode] ??= buildTheme(mode, prefersReducedMotion()));
