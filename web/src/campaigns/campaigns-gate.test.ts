import { describe, expect, test } from 'vitest';
import { campaignsAllowed } from './CampaignsGate';

describe('campaign routes guard', () => {
  test('open with the cshow storage flag, or when the plan has campaigns; closed otherwise', () => {
    expect(campaignsAllowed(true, null)).toBe(true);
    expect(campaignsAllowed(true, { useCampaigns: false })).toBe(true);
    expect(campaignsAllowed(false, { useCampaigns: true })).toBe(true);
    expect(campaignsAllowed(false, { useCampaigns: false })).toBe(false);
    expect(campaignsAllowed(false, null)).toBe(false);
  });
});
