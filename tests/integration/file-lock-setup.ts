import { afterAll, beforeAll, inject } from 'vitest';
import { acquireFileLock } from './file-lock';
import { declaredTimers, ranAlone } from './helpers';

// Every integration file holds the stack lock (file-lock.ts) while its tests run: shared, or
// exclusive when the file called `runsAlone()`; then, in name order, the lock of each timer it
// declared with `usesTimers()`. These hooks are registered before the file's own, so they run
// first and the releases run last.
const releases: (() => Promise<void>)[] = [];
beforeAll(async () => {
  const url = inject('fileLockUrl');
  releases.push(await acquireFileLock(url, ranAlone() ? 'exclusive' : 'shared'));
  if (ranAlone()) return;
  for (const timer of declaredTimers()) releases.push(await acquireFileLock(url, 'exclusive', `timer:${timer}`));
}, 60 * 60_000);
afterAll(async () => {
  for (const release of releases.splice(0).reverse()) await release();
});
