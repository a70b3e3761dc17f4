import { Box, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { config } from '../config';
import { useApi } from '../api/swr';
import { FeatureGate } from '../components/FeatureGate';
import { PageFrame } from '../components/PageFrame';
import { asList } from '../realtime/cache';
import { SendTestForm, type ConnectionChoice } from './SendTestForm';
import { SEND_ERRORS, curlMedia, curlText, sendEndpoint } from './send-form';

const Code = ({ children }: { children: string }) => (
  <Box
    component="pre"
    sx={{
      m: 0,
      p: 1.5,
      bgcolor: 'action.hover',
      borderRadius: 1,
      overflow: 'auto',
      fontSize: 13,
      fontFamily: 'monospace',
    }}
  >
    {children}
  </Box>
);

function MessagesApi() {
  const { t } = useTranslation('messagesApi');
  const endpoint = sendEndpoint(config().apiUrl, window.location.origin);
  const { data } = useApi<unknown>('/whatsapp', { session: 0 });
  const connections = asList<ConnectionChoice>(data, 'whatsapps');

  return (
    <PageFrame title={t('title')}>
      <Stack spacing={3} sx={{ p: 2 }}>
        <Typography>{t('intro')}</Typography>
        <Box component="section" aria-labelledby="mapi-endpoint">
          <Typography variant="h6" component="h2" id="mapi-endpoint" gutterBottom>
            {t('doc.endpoint')}
          </Typography>
          <Code>{`POST ${endpoint}`}</Code>
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            {t('doc.headers')}
          </Typography>
          <Typography component="div" variant="body2">
            <code>Authorization: Bearer &lt;token&gt;</code> — {t('doc.authorization')}
            <br />
            <code>Content-Type</code> — {t('doc.contentType')}
          </Typography>
        </Box>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0 }} component="section" aria-labelledby="mapi-text">
            <Typography variant="h6" component="h2" id="mapi-text" gutterBottom>
              {t('doc.text')}
            </Typography>
            <Typography variant="body2" gutterBottom>
              {t('doc.textFields')}
            </Typography>
            <Typography variant="subtitle2">{t('doc.example')}</Typography>
            <Code>{curlText(endpoint)}</Code>
          </Paper>
          <Paper
            variant="outlined"
            sx={{ p: 2, flex: 1, minWidth: 0 }}
            component="section"
            aria-labelledby="mapi-media"
          >
            <Typography variant="h6" component="h2" id="mapi-media" gutterBottom>
              {t('doc.media')}
            </Typography>
            <Typography variant="body2" gutterBottom>
              {t('doc.mediaFields')}
            </Typography>
            <Typography variant="subtitle2">{t('doc.example')}</Typography>
            <Code>{curlMedia(endpoint)}</Code>
          </Paper>
        </Stack>
        <Box component="section" aria-labelledby="mapi-answers">
          <Typography variant="h6" component="h2" id="mapi-answers" gutterBottom>
            {t('doc.answers')}
          </Typography>
          <Typography variant="body2">{t('doc.ok')}</Typography>
          <Code>
            {JSON.stringify({ message: 'Message sent', messages: [{ id: 1, body: 'Hello!', fromMe: true }] }, null, 2)}
          </Code>
          <Typography variant="body2" sx={{ mt: 1 }}>
            {t('doc.errors')}
          </Typography>
          <Table size="small" aria-label={t('doc.answers')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('doc.status')}</TableCell>
                <TableCell>{t('doc.code')}</TableCell>
                <TableCell>{t('doc.meaning')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {SEND_ERRORS.map((e) => (
                <TableRow key={e.code}>
                  <TableCell>{e.status}</TableCell>
                  <TableCell>
                    <code>{e.code}</code>
                  </TableCell>
                  <TableCell>{t(`doc.meanings.${e.code}`)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <SendTestForm kind="text" endpoint={endpoint} connections={connections} />
          <SendTestForm kind="media" endpoint={endpoint} connections={connections} />
        </Stack>
      </Stack>
    </PageFrame>
  );
}

/** The messages API page (management.md "Messages API page"), behind the plan flag useExternalApi. */
export default function MessagesApiPage() {
  const { t } = useTranslation('messagesApi');
  return (
    <FeatureGate feature="useExternalApi" message={t('denied')}>
      <MessagesApi />
    </FeatureGate>
  );
}
