import { Typography } from '@mui/material';

export default function TicketsPage() {
  return <Typography sx={{ p: 3 }}>…</Typography>;
}
