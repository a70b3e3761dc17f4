import type { ReactNode } from 'react';
import { Box, Container, Paper, Typography } from '@mui/material';
import ForumIcon from '@mui/icons-material/Forum';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from './LanguageMenu';

/** The frame of login, signup and reset: logo, title, language menu, copyright footer. */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <LanguageMenu color="default" />
      </Box>
      <Container maxWidth="xs" sx={{ flex: 1, display: 'flex', alignItems: 'center' }}>
        <Paper sx={{ p: { xs: 2, sm: 4 }, width: '100%' }} elevation={2}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, color: 'primary.main' }}>
            <ForumIcon fontSize="large" />
            <Typography variant="h5" component="h1" color="text.primary">
              {title}
            </Typography>
          </Box>
          {children}
        </Paper>
      </Container>
      <Typography variant="body2" color="text.secondary" align="center" sx={{ py: 2 }}>
        {t('copyright', { year: new Date().getFullYear() })}
      </Typography>
    </Box>
  );
}
