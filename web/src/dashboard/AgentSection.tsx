import { Card, CardContent, Grid, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { AgentCsat, AgentMetrics } from '#shared/schemas/knowledge';

const percent = (v: number | null) => (v === null ? '-' : `${v}%`);
const csatText = (c: AgentCsat) => (c.percent === null ? '-' : `${c.percent}% (${c.ratings})`);

/**
 * The AI agent of the dashboard's period (issue 39 item 6): tickets it resolved without a person
 * against those people resolved, hand-offs and their rate, CSAT of each side and the model spend.
 */
export function AgentSection({ metrics }: { metrics: AgentMetrics }) {
  const { t } = useTranslation('dashboard');
  const cards = [
    ['resolved', String(metrics.resolved)],
    ['peopleResolved', String(metrics.peopleResolved)],
    ['handOffs', String(metrics.handOffs)],
    ['handOffRate', percent(metrics.handOffRate)],
    ['csatAgent', csatText(metrics.csat.agent)],
    ['csatPeople', csatText(metrics.csat.people)],
    ['calls', String(metrics.spend.calls)],
    ['tokens', metrics.spend.tokens.toLocaleString()],
  ] as const;
  return (
    <Paper component="section" aria-labelledby="agent-title" sx={{ p: 2, mb: 2 }}>
      <Typography id="agent-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('agent.title')}
      </Typography>
      <Grid container spacing={2}>
        {cards.map(([key, value]) => (
          <Grid key={key} size={{ xs: 6, md: 3 }}>
            <Card variant="outlined">
              <CardContent>
                <Typography variant="body2" color="text.secondary">
                  {t(`agent.${key}`)}
                </Typography>
                <Typography variant="h6" component="p" aria-label={t(`agent.${key}`)}>
                  {value}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Paper>
  );
}
