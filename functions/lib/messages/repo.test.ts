import { describe, it, expect } from 'vitest';
import { conversationMessageId, messageItem, messageKeysOfId, newMessageId, newWid } from './repo';
import type { Message } from '#shared/schemas/messages';

describe('message ids', () => {
  it('are time-ordered as strings (a page is one Query in sort-key order)', () => {
    const ids = [0, 1000, 999_000, 1_700_000_000_000, 1_700_000_001_000, 4_000_000_000_000].map((t) =>
      newMessageId(t, t),
    );
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^[0-9a-z]{26}$/.test(id))).toBe(true);
  });

  it('keep the arrival order of messages that WhatsApp stamped with the same second', () => {
    const second = 1_700_000_000_000;
    for (let run = 0; run < 200; run++) {
      const ids = [second + 5, second + 6, second + 900].map((storedAt) => newMessageId(second, storedAt));
      expect([...ids].sort()).toEqual(ids);
    }
  });

  it('put a later WhatsApp second after an earlier one, whenever each was stored', () => {
    expect(
      newMessageId(1_700_000_001_000, 1_700_000_001_100) > newMessageId(1_700_000_000_000, 1_700_000_002_000),
    ).toBe(true);
  });

  it('never collide for the same millisecond', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newMessageId(1_700_000_000_000, 1_700_000_000_000)));
    expect(ids.size).toBe(2000);
  });
});

describe('message ids that name their conversation', () => {
  it('lead to the stored item with no index, and sort by arrival like the ids before them', () => {
    const id = conversationMessageId({ contactId: 123_456, whatsappId: 42 }, 1_700_000_000_000, 1_700_000_000_005);
    expect(messageKeysOfId(7, id)).toEqual({ pk: 'C#7#MSG#123456#42', sk: `M#${id}` });
    const later = conversationMessageId({ contactId: 123_456, whatsappId: 42 }, 1_700_000_000_000, 1_700_000_000_006);
    expect(later > id).toBe(true);
    expect(id.slice(0, 26) < newMessageId(1_700_000_001_000, 1_700_000_001_000)).toBe(true);
  });

  it('are written without the id index; older ids keep it and are not parsed', () => {
    const base = { companyId: 7, contactId: 3, whatsappId: 4 } as Message;
    const named = messageItem({ ...base, id: conversationMessageId(base) });
    expect(named).not.toHaveProperty('gsi1pk');
    const older = newMessageId();
    expect(messageItem({ ...base, id: older })).toMatchObject({ gsi1pk: `C#7#MID#${older}`, gsi1sk: 'M' });
    expect(messageKeysOfId(7, older)).toBeUndefined();
    expect(messageKeysOfId(7, `${older}-x-`)).toBeUndefined();
  });
});

describe('WhatsApp ids we assign', () => {
  it('have the form WhatsApp Web uses (3EB0 + 18 upper-case hex) and do not repeat', () => {
    const wids = Array.from({ length: 1000 }, () => newWid());
    expect(wids.every((w) => /^3EB0[0-9A-F]{18}$/.test(w))).toBe(true);
    expect(new Set(wids).size).toBe(1000);
  });
});
