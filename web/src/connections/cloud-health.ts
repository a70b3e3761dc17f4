import { isCloudProvider } from '#shared/constants';
import type { Whatsapp } from '#shared/schemas/whatsapp';

/**
 * A Cloud API number's quality as Meta reports it (rating and quality events), turned into what the
 * Connections page and the menu badge show. Small and free of React and MUI: the menu badge, part of
 * every signed-in page, reads `cloudNeedsAttention` (the limit and usage rules are in cloud-usage.ts).
 */

export type CloudHealth = Partial<
  Pick<Whatsapp, 'provider' | 'cloudQuality' | 'cloudMessagingLimit' | 'cloudQualityEvent' | 'cloudQualityEventAt'>
>;

export type QualityLevel = 'high' | 'medium' | 'low' | 'unrated';

/** The chip's colour: green, amber, red, grey. */
export const QUALITY_COLOR: Record<QualityLevel, 'success' | 'warning' | 'error' | 'default'> = {
  high: 'success',
  medium: 'warning',
  low: 'error',
  unrated: 'default',
};

const RATING: Record<string, QualityLevel> = { GREEN: 'high', YELLOW: 'medium', RED: 'low' };

/** Meta's last quality event flagged the number (an UNFLAGGED one or any later event ends it). */
export const isFlagged = (c: CloudHealth) => c.cloudQualityEvent?.toUpperCase() === 'FLAGGED';

/**
 * The rating shown. A flag means Meta found the quality low: it wins over the rating last read with
 * the number, which the quality webhook does not carry.
 */
export function qualityLevel(c: CloudHealth): QualityLevel {
  if (isFlagged(c)) return 'low';
  return RATING[c.cloudQuality?.toUpperCase() ?? ''] ?? 'unrated';
}

/** Why the row warns, if it does: Meta flagged the number, or rates its quality low. */
export function cloudWarning(c: CloudHealth): 'flagged' | 'lowQuality' | undefined {
  if (!isCloudProvider(c.provider)) return undefined;
  if (isFlagged(c)) return 'flagged';
  return qualityLevel(c) === 'low' ? 'lowQuality' : undefined;
}

/** The Connections menu badge's cloud rule: a Cloud API number flagged or rated low. */
export const cloudNeedsAttention = (c: CloudHealth) => cloudWarning(c) !== undefined;
