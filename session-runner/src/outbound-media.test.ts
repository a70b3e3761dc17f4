import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ByteBudget } from './byte-budget';

let failDownload = false;
vi.mock('#lib/storage', () => ({
  objectSize: async () => 10,
  downloadObject: async (_key: string, path: string) => {
    await writeFile(path, failDownload ? 'half' : '0123456789');
    if (failDownload) throw new Error('connection reset');
  },
}));
const { holdMedia } = await import('./outbound-media');

describe('outbound media', () => {
  it("holds the object's bytes in the budget from before its download until it is discarded, and removes its file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbound-media-test-'));
    const budget = new ByteBudget(15);
    const held = await holdMedia('company1/media/a.mp4', budget, dir);
    expect(budget.inFlight).toBe(10);
    expect(held.size).toBe(10);
    expect(existsSync(held.path)).toBe(true);
    // a second one does not fit: it waits for the first
    let second: Awaited<ReturnType<typeof holdMedia>> | undefined;
    const waiting = holdMedia('company1/media/b.mp4', budget, dir).then((h) => {
      second = h;
    });
    await new Promise((r) => setImmediate(r));
    expect(second).toBeUndefined();
    await held.discard();
    await held.discard();
    await waiting;
    expect(existsSync(held.path)).toBe(false);
    expect(budget.inFlight).toBe(10);
    await second!.discard();
    expect(budget.inFlight).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a failed download leaves no file behind and gives its bytes back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbound-media-test-'));
    const budget = new ByteBudget(15);
    failDownload = true;
    await expect(holdMedia('company1/media/a.mp4', budget, dir)).rejects.toThrow('connection reset');
    failDownload = false;
    expect(await readdir(dir)).toEqual([]);
    expect(budget.inFlight).toBe(0);
  });
});
