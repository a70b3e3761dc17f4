import type { ComponentType } from 'react';
import { Box, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FeatureGate } from '../components/FeatureGate';
import { ArticlesTab } from './ArticlesTab';
import { BenchTab } from './BenchTab';
import { UnansweredTab } from './UnansweredTab';

/**
 * The sections of the knowledge base page, in order; the first is shown by default. A section is
 * a component of its own; its label is a key of the `knowledge` namespace. `?tab=<key>` opens one.
 */
export const KNOWLEDGE_TABS: { key: string; label: string; Component: ComponentType }[] = [
  { key: 'articles', label: 'tabs.articles', Component: ArticlesTab },
  { key: 'unanswered', label: 'tabs.unanswered', Component: Unanswered },
  { key: 'bench', label: 'tabs.bench', Component: BenchTab },
];

/** The agent's unanswered questions; a draft made from one opens in the articles tab's editor. */
function Unanswered() {
  const [, setParams] = useSearchParams();
  return <UnansweredTab onOpenArticle={(id) => setParams({ edit: String(id) })} />;
}

function Knowledge() {
  const { t } = useTranslation('knowledge');
  const [params, setParams] = useSearchParams();
  const current = KNOWLEDGE_TABS.find((tab) => tab.key === params.get('tab')) ?? KNOWLEDGE_TABS[0]!;
  const { Component } = current;
  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, height: '100%', minHeight: 0 }}>
      <Typography variant="h5" component="h1">
        {t('title')}
      </Typography>
      <Tabs
        value={current.key}
        onChange={(_, key: string) => setParams(key === KNOWLEDGE_TABS[0]!.key ? {} : { tab: key })}
        aria-label={t('tabs.label')}
        variant="scrollable"
      >
        {KNOWLEDGE_TABS.map((tab) => (
          <Tab
            key={tab.key}
            value={tab.key}
            label={t(tab.label)}
            id={`knowledge-tab-${tab.key}`}
            aria-controls={`knowledge-panel-${tab.key}`}
          />
        ))}
      </Tabs>
      <Box
        role="tabpanel"
        id={`knowledge-panel-${current.key}`}
        aria-labelledby={`knowledge-tab-${current.key}`}
        sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <Component />
      </Box>
    </Box>
  );
}

/** The company's knowledge base (issue 39): what the AI agent answers from. Admins, plans with useOpenAi. */
export default function KnowledgePage() {
  const { t } = useTranslation('knowledge');
  return (
    <FeatureGate feature="useOpenAi" message={t('denied')}>
      <Knowledge />
    </FeatureGate>
  );
}
