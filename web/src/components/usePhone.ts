import { useMediaQuery, useTheme } from '@mui/material';

/** True below the `sm` breakpoint (600 px): a phone, where dialogs go full screen and lists trade columns for rows. */
export function usePhone() {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'));
}
