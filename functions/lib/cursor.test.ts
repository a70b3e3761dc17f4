import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor';

beforeAll(() => {
  process.env.TABLE_NAME = 't';
  process.env.MEDIA_BUCKET = 'b';
  process.env.JWT_SECRET = 'unit-test-secret';
});

const tags = { pk: 'C#7', sk: { beginsWith: 'TAG#' } };
const users = { pk: 'C#7', sk: { beginsWith: 'USER#' } };

describe('page cursors', () => {
  it('round-trip the start key for the company and list they were made for', async () => {
    const key = { pk: 'C#7', sk: 'TAG#0000000042' };
    const cursor = await encodeCursor(7, key, tags);
    expect(cursor).not.toContain('TAG');
    expect(await decodeCursor(7, cursor, tags)).toEqual(key);
  });

  it('a cursor from another company is rejected', async () => {
    const cursor = await encodeCursor(7, { pk: 'C#7', sk: 'X' }, tags);
    await expect(decodeCursor(8, cursor, tags)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR', status: 400 });
  });

  it('a cursor from another list of the same company is rejected', async () => {
    const cursor = await encodeCursor(7, { pk: 'C#7', sk: 'TAG#1' }, tags);
    await expect(decodeCursor(7, cursor, users)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR', status: 400 });
    await expect(decodeCursor(7, cursor, 'tickets:streams')).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
  });

  it('a cursor from another partition or index of the same list is rejected', async () => {
    const conversation = (n: number) => ({ pk: `C#7#CONV#${n}`, sk: { beginsWith: 'M#' } });
    const cursor = await encodeCursor(7, { pk: 'C#7#CONV#1', sk: 'M#1' }, conversation(1));
    await expect(decodeCursor(7, cursor, conversation(2))).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
    await expect(decodeCursor(7, cursor, { ...conversation(1), index: 'gsi1' })).rejects.toMatchObject({
      code: 'ERR_INVALID_CURSOR',
    });
  });

  it('a tampered cursor is rejected', async () => {
    const cursor = (await encodeCursor(7, { pk: 'C#7', sk: 'X' }, tags))!;
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ c: 8, k: { pk: 'C#8', sk: 'X' } })).toString('base64url');
    await expect(decodeCursor(8, `${forged}.${mac}`, tags)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
    await expect(decodeCursor(7, `${payload}.AAAA`, tags)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
    await expect(decodeCursor(7, `${cursor}.x`, tags)).rejects.toMatchObject({ code: 'ERR_INVALID_CURSOR' });
  });

  it('the MAC is not made with the JWT signing key itself', async () => {
    const cursor = (await encodeCursor(7, { pk: 'C#7', sk: 'X' }, tags))!;
    const [payload, mac] = cursor.split('.');
    const withJwtKey = (data: string) => createHmac('sha256', 'unit-test-secret').update(data).digest('base64url');
    expect(mac).not.toBe(withJwtKey(payload!));
    const scoped = JSON.stringify([7, JSON.stringify(['', 'C#7', { beginsWith: 'TAG#' }]), payload]);
    expect(mac).not.toBe(withJwtKey(scoped));
  });
});
