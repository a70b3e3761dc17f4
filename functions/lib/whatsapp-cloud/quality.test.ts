import { describe, expect, it } from 'vitest';
import { alertReason, limitLowered, qualityDropped } from './quality';
import { cloudPricing, numberQualityEvent } from './mapping';

const conn = { companyId: 1, whatsappId: 2 };

describe("a Cloud API number's health", () => {
  it('a quality fall is GREEN to YELLOW or RED, or YELLOW to RED; an unknown rating is no fall', () => {
    expect(qualityDropped('GREEN', 'YELLOW')).toBe(true);
    expect(qualityDropped('GREEN', 'RED')).toBe(true);
    expect(qualityDropped('YELLOW', 'red')).toBe(true);
    expect(qualityDropped('RED', 'YELLOW')).toBe(false);
    expect(qualityDropped('GREEN', 'GREEN')).toBe(false);
    expect(qualityDropped(undefined, 'RED')).toBe(false);
    expect(qualityDropped('GREEN', 'UNKNOWN')).toBe(false);
  });

  it('a lower limit is a smaller known number; unlimited (-1) is the highest', () => {
    expect(limitLowered(10_000, 2000)).toBe(true);
    expect(limitLowered(-1, 100_000)).toBe(true);
    expect(limitLowered(2000, -1)).toBe(false);
    expect(limitLowered(undefined, 250)).toBe(false);
    expect(limitLowered(250, 250)).toBe(false);
  });

  it('admins hear of a flag, a quality fall or a lower limit, and of nothing better', () => {
    const before = { cloudQuality: 'GREEN', cloudMessagingLimit: 10_000 };
    expect(alertReason(before, { event: 'FLAGGED' })).toBe('flagged');
    expect(alertReason(before, { quality: 'YELLOW' })).toBe('qualityDropped');
    expect(alertReason(before, { event: 'DOWNGRADE' })).toBe('limitLowered');
    expect(alertReason(before, { messagingLimit: 2000 })).toBe('limitLowered');
    expect(alertReason(before, { event: 'UPGRADE', messagingLimit: 100_000 })).toBeUndefined();
    expect(alertReason(before, { event: 'UNFLAGGED', quality: 'GREEN' })).toBeUndefined();
  });
});

describe("Meta's webhooks read", () => {
  const status = { id: 'wamid.1', status: 'delivered', timestamp: '1764633600', recipient_id: '5511' };
  it('pricing: `regular` is charged, Meta free types are not, no category is no pricing', () => {
    expect(cloudPricing({ ...status, pricing: { category: 'MARKETING', type: 'regular' } })).toEqual({
      category: 'marketing',
      charged: true,
      at: 1764633600,
    });
    expect(cloudPricing({ ...status, pricing: { category: 'service', type: 'free_customer_service' } })?.charged).toBe(
      false,
    );
    expect(cloudPricing({ ...status, pricing: { category: 'utility', billable: false } })?.charged).toBe(false);
    expect(cloudPricing({ ...status, pricing: { type: 'regular' } })).toBeUndefined();
    expect(cloudPricing(status)).toBeUndefined();
  });

  it('a quality event carries the portfolio limit as a tier, a number, or not at all', () => {
    const v = { display_phone_number: '5511', event: 'downgrade' };
    expect(numberQualityEvent({ ...v, max_daily_conversations_per_business: 'TIER_2K' }, conn, 9)).toEqual({
      type: 'numberQuality',
      ...conn,
      event: 'DOWNGRADE',
      messagingLimit: 2000,
      at: 9,
    });
    expect(numberQualityEvent({ ...v, max_daily_conversations_per_business: -1 }, conn, 9).messagingLimit).toBe(-1);
    expect(numberQualityEvent({ ...v, current_limit: 'TIER_UNLIMITED' }, conn, 9).messagingLimit).toBe(-1);
    expect(numberQualityEvent({ ...v, event: 'FLAGGED' }, conn, 9)).not.toHaveProperty('messagingLimit');
  });
});
