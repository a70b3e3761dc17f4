import { describe, expect, test } from 'vitest';
import { QUALITY_COLOR, cloudNeedsAttention, cloudWarning, qualityLevel } from './cloud-health';

const cloud = { provider: 'cloud' };

describe("a Cloud API number's health on the Connections page", () => {
  test("Meta's rating shows as high (green), medium (amber), low (red) or not rated (grey)", () => {
    const shown = (cloudQuality?: string) => {
      const level = qualityLevel({ ...cloud, cloudQuality });
      return [level, QUALITY_COLOR[level]];
    };
    expect(shown('GREEN')).toEqual(['high', 'success']);
    expect(shown('YELLOW')).toEqual(['medium', 'warning']);
    expect(shown('RED')).toEqual(['low', 'error']);
    expect(shown('red')).toEqual(['low', 'error']);
    expect(shown('UNKNOWN')).toEqual(['unrated', 'default']);
    expect(shown(undefined)).toEqual(['unrated', 'default']);
  });

  test('a flagged number shows low whatever rating was last read, until Meta unflags it', () => {
    expect(qualityLevel({ ...cloud, cloudQuality: 'GREEN', cloudQualityEvent: 'FLAGGED' })).toBe('low');
    expect(qualityLevel({ ...cloud, cloudQuality: 'GREEN', cloudQualityEvent: 'UNFLAGGED' })).toBe('high');
  });

  test('the row warns when Meta flagged the number or rates it low, and names which', () => {
    expect(cloudWarning({ ...cloud, cloudQuality: 'GREEN', cloudQualityEvent: 'FLAGGED' })).toBe('flagged');
    expect(cloudWarning({ ...cloud, cloudQuality: 'RED', cloudQualityEvent: 'FLAGGED' })).toBe('flagged');
    expect(cloudWarning({ ...cloud, cloudQuality: 'RED' })).toBe('lowQuality');
    expect(cloudWarning({ ...cloud, cloudQuality: 'RED', cloudQualityEvent: 'UNFLAGGED' })).toBe('lowQuality');
    expect(cloudWarning({ ...cloud, cloudQuality: 'YELLOW' })).toBeUndefined();
    expect(cloudWarning({ ...cloud, cloudQuality: 'GREEN', cloudQualityEvent: 'UNFLAGGED' })).toBeUndefined();
    expect(cloudWarning({ ...cloud, cloudQualityEvent: 'DOWNGRADE' })).toBeUndefined();
  });

  test('the menu badge rule: a Cloud API number flagged or rated RED; never a WhatsApp Web connection', () => {
    expect(cloudNeedsAttention({ ...cloud, cloudQualityEvent: 'FLAGGED' })).toBe(true);
    expect(cloudNeedsAttention({ ...cloud, cloudQuality: 'RED' })).toBe(true);
    expect(cloudNeedsAttention({ ...cloud, cloudQuality: 'YELLOW' })).toBe(false);
    expect(cloudNeedsAttention({ ...cloud, cloudQuality: 'GREEN', cloudQualityEvent: 'UNFLAGGED' })).toBe(false);
    expect(cloudNeedsAttention({ provider: 'beta', cloudQuality: 'RED', cloudQualityEvent: 'FLAGGED' })).toBe(false);
  });
});
