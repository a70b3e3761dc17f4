import { describe, expect, it } from 'vitest';
import { isCheckRestriction } from './whatsapp-protocol';

describe('number check refusals', () => {
  it("WhatsApp's rate-overlimit, 429 and 463 are restrictions; any other failure is not", () => {
    expect(isCheckRestriction(new Error('rate-overlimit'))).toBe(true);
    expect(isCheckRestriction({ message: 'usync failed', output: { statusCode: 429 } })).toBe(true);
    expect(isCheckRestriction({ message: 'refused', data: { code: '463' } })).toBe(true);
    expect(isCheckRestriction(new Error('Connection Closed'))).toBe(false);
    expect(isCheckRestriction({ message: 'timed out', output: { statusCode: 408 } })).toBe(false);
    expect(isCheckRestriction(undefined)).toBe(false);
  });
});
