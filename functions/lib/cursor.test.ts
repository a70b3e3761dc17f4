import { describe, it, expect, beforeAll } from 'vitest';
import { encodeCursor, decodeCursor } from './cursor';

beforeAll(() => {
  process.env.TABLE_NAME = 't';
  process.env.MEDIA_BUCKET = 'b';
  process.env.JWT_SECRET = 'unit-test-secret';
});

describe('page cursors', () => {
  it('round-trip the start key for the company they were made for', async () => {
    const key = { pk: 'C#7', sk: 'TICKET#0000000042' };
    const cursor = await encodeCursor(7, key);
    expect(cursor).not.toContain('TICKET');
    expect(await decodeCursor(7, cursor)).toEqual(key);
  });

  it('a cursor from another company is rejected', async () => {
    const cursor = await encodeCursor(7, { pk: 'C#7', sk: 'X' });
    await expect(decodeCursor(8, cursor)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR', status: 400 });
  });

  it('a tampered cursor is rejected', async () => {
    const cursor = (await encodeCursor(7, { pk: 'C#7', sk: 'X' }))!;
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ c: 8, k: { pk: 'C#8', sk: 'X' } })).toString('base64url');
    await expect(decodeCursor(8, `${forged}.${mac}`)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
    await expect(decodeCursor(7, `${payload}.AAAA`)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
  });
});
