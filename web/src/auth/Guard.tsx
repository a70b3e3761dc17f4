import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { Box, CircularProgress } from '@mui/material';
import { useAuth } from './AuthProvider';
import { guardRedirect, type RouteKind } from './guard';

export function FullPageSpinner() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
      <CircularProgress aria-label="loading" />
    </Box>
  );
}

export function Guard({ kind, children }: { kind: RouteKind; children: ReactNode }) {
  const { status, landing } = useAuth();
  const to = guardRedirect(kind, status, landing);
  if (to) return <Navigate to={to} replace />;
  if (status === 'loading') return <FullPageSpinner />;
  return <>{children}</>;
}
