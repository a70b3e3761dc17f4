import { describe, expect, it } from 'vitest';
import { sharedMessageId, wamidKey, wamidOf } from './wamid';

describe('wamid keys', () => {
  it('reads the chat, the direction and the device id out of a wamid in the shape Meta sends', () => {
    // bytes as Meta's webhooks carry them: struct{ struct{ "5511987654321", 1 }, false, "3A1F0C9E27B4D5A60E12" }
    const wamid = 'wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFDNBMUYwQzlFMjdCNEQ1QTYwRTEyAA==';
    expect(wamidKey(wamid)).toEqual({ chat: '5511987654321', fromMe: false, id: '3A1F0C9E27B4D5A60E12' });
    expect(sharedMessageId(wamid)).toBe('3A1F0C9E27B4D5A60E12');
  });

  it('writes what it reads, for both directions', () => {
    for (const key of [
      { chat: '5511900001111', fromMe: true, id: '3EB0C431C26A1916E07A' },
      { chat: '14155550123', fromMe: false, id: 'ABCDEF0123456789' },
    ])
      expect(wamidKey(wamidOf(key))).toEqual(key);
  });

  it('anything not in that exact shape is no key: the id stays as given', () => {
    const good = wamidOf({ chat: '5511900001111', fromMe: false, id: '3EB0C431C26A1916E07A' });
    const bytes = Buffer.from(good.slice(6), 'base64');
    const extra = `wamid.${Buffer.concat([bytes, Buffer.from([0])]).toString('base64')}`;
    const truncated = `wamid.${bytes.subarray(0, bytes.length - 3).toString('base64')}`;
    for (const id of ['wamid.', 'wamid.!!!', 'wamid.SGVsbG8gd29ybGQ=', extra, truncated, '3EB0C431C26A1916E07A', 'x'])
      expect(wamidKey(id)).toBeUndefined();
    expect(sharedMessageId('wamid.SGVsbG8gd29ybGQ=')).toBe('wamid.SGVsbG8gd29ybGQ=');
  });
});
