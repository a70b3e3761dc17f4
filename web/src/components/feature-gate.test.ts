import { describe, expect, it } from 'vitest';
import { featureState } from './feature-gate';

describe('featureState (plan-gated pages, management.md 6)', () => {
  it('waits while the plan has not loaded', () => {
    expect(featureState(null, 'useOpenAi')).toBe('loading');
    expect(featureState(undefined, 'useExternalApi')).toBe('loading');
  });
  it('allows a plan with the flag and denies one without it', () => {
    expect(featureState({ useOpenAi: true }, 'useOpenAi')).toBe('allowed');
    expect(featureState({ useOpenAi: false, useIntegrations: true }, 'useOpenAi')).toBe('denied');
    expect(featureState({ useIntegrations: true }, 'useExternalApi')).toBe('denied');
  });
});
