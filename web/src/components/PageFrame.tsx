import type { ReactNode, UIEventHandler } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';

/**
 * The frame of a list screen: a title with its actions on one row, and below it the scrolling
 * paper that holds the table (its `onScroll` loads the next page near the bottom).
 */
export function PageFrame({
  title,
  actions,
  children,
  onScroll,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  onScroll?: UIEventHandler<HTMLDivElement>;
}) {
  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, height: '100%', minHeight: 0 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {actions && (
          <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            {actions}
          </Stack>
        )}
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}
        onScroll={onScroll}
        data-testid="page-scroll"
      >
        {children}
      </Paper>
    </Box>
  );
}
