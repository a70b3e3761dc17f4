import { Box } from '@mui/material';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const NAMES: Record<string, string> = { Control: 'Ctrl', Meta: '⌘', ArrowDown: '↓', ArrowUp: '↑' };

/** A key combination (`Alt+ArrowDown`) as its key caps read (`Alt`, `↓`; Option is ⌥ on a Mac). */
export const keyCaps = (combo: string) =>
  combo === '?' ? ['?'] : combo.split('+').map((k) => (k === 'Alt' && isMac ? '⌥' : (NAMES[k] ?? k)));

/** The combinations this computer uses: Ctrl on Windows and Linux, ⌘ on a Mac. */
export const platformKeys = (keys: readonly string[]) =>
  keys.filter((k) => (isMac ? !k.startsWith('Control+') : !k.startsWith('Meta+')));

/** One key combination drawn as key caps. */
export function Keys({ combo }: { combo: string }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 0.5, alignItems: 'center' }}>
      {keyCaps(combo).map((cap) => (
        <Box
          component="kbd"
          key={cap}
          sx={{
            fontFamily: 'inherit',
            fontSize: 12,
            lineHeight: '18px',
            minWidth: 20,
            px: 0.75,
            textAlign: 'center',
            border: 1,
            borderColor: 'divider',
            borderBottomWidth: 2,
            borderRadius: 1,
            bgcolor: 'action.hover',
            color: 'text.secondary',
          }}
        >
          {cap}
        </Box>
      ))}
    </Box>
  );
}
