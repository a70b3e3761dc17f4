import { describe, expect, it } from 'vitest';
import { missingFromBundle } from './check-bundle.mjs';

describe('the runner bundle check', () => {
  it('passes a bundle whose Baileys calls the receipt hook, and names the hook when it does not', () => {
    const patched = 'GA="inactive"),await s.beforeDeliveryReceipt?.(x),Y=!0,await j(x.key.remoteJid';
    expect(missingFromBundle(patched)).toEqual([]);
    // our own provider passing the hook is not Baileys calling it
    const unpatched = 'GA="inactive"),Y=!0,await j(x.key.remoteJid;beforeDeliveryReceipt:a=>this.journal.hold(a)';
    expect(missingFromBundle(unpatched)).toHaveLength(1);
    expect(missingFromBundle(unpatched)[0]).toMatch(/receipt hook/);
  });
});
