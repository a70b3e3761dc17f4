import { Navigate } from 'react-router-dom';
import { Typography } from '@mui/material';
import { useAuth } from '../auth/AuthProvider';
import { homeFor } from '../auth/guard';

export default function DashboardPage() {
  const { user } = useAuth();
  if (homeFor(user?.profile) !== '/') return <Navigate to="/tickets" replace />;
  return <Typography sx={{ p: 3 }}>…</Typography>;
}
