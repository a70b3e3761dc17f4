import { afterEach, describe, expect, it } from 'vitest';
import { acquireFileLock, type FileLockServer, startFileLock } from './integration/file-lock';

let server: FileLockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Resolves to whether `p` settled within a few event-loop turns on loopback. */
const settlesSoon = (p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 150))]);

describe('the integration files lock (tests/integration/file-lock.ts)', () => {
  it('files that share the stack hold it together', async () => {
    server = await startFileLock();
    const releases = await Promise.all([1, 2, 3, 4].map(() => acquireFileLock(server!.url, 'shared')));
    expect(releases).toHaveLength(4);
    await Promise.all(releases.map((r) => r()));
  });

  it('a file that runs alone waits for every running file, and files that come after it wait for it', async () => {
    server = await startFileLock();
    const first = await acquireFileLock(server.url, 'shared');
    const alone = acquireFileLock(server.url, 'exclusive');
    expect(await settlesSoon(alone)).toBe(false);
    // arrived after the lone file: not let in beside the running one, or the lone file would starve
    const later = acquireFileLock(server.url, 'shared');
    expect(await settlesSoon(later)).toBe(false);
    await first();
    const releaseAlone = await alone;
    expect(await settlesSoon(later)).toBe(false);
    await releaseAlone();
    await (await later)();
  });

  it("a timer's lock is held by one file at a time, and blocks no file that does not use that timer", async () => {
    server = await startFileLock();
    const schedules = await acquireFileLock(server.url, 'exclusive', 'timer:schedules');
    const campaigns = acquireFileLock(server.url, 'exclusive', 'timer:campaigns');
    expect(await settlesSoon(campaigns)).toBe(true);
    const stack = acquireFileLock(server.url, 'shared');
    expect(await settlesSoon(stack)).toBe(true);
    const schedulesToo = acquireFileLock(server.url, 'exclusive', 'timer:schedules');
    expect(await settlesSoon(schedulesToo)).toBe(false);
    await schedules();
    await (await schedulesToo)();
    await (await campaigns)();
    await (await stack)();
  });

  it('the files that run alone get in line first, even when another file asks before them; one that never comes holds nobody for long', async () => {
    server = await startFileLock({ aloneFiles: () => 1, gateMs: 400 });
    const early = acquireFileLock(server.url, 'shared');
    expect(await settlesSoon(early)).toBe(false);
    const alone = acquireFileLock(server.url, 'exclusive');
    const releaseAlone = await alone;
    expect(await settlesSoon(early)).toBe(false);
    await releaseAlone();
    await (await early)();

    await server.close();
    server = await startFileLock({ aloneFiles: () => 1, gateMs: 400 });
    const waiting = acquireFileLock(server.url, 'shared');
    expect(await settlesSoon(waiting)).toBe(false);
    // the lone file never comes: the gate opens after gateMs
    await (await waiting)();
  });
});
