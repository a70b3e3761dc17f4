import { afterAll, beforeAll, inject } from 'vitest';
import { acquireFileLock } from './file-lock';
import { declaredTimers, forgetFileDeclarations, ranAlone } from './helpers';

// Every integration file holds the stack lock (file-lock.ts) while its tests run: shared, or
// exclusive when the file called `runsAlone()`; then, in name order, the lock of each timer it
// declared with `usesTimers()`. These hooks are registered before the file's own, so they run
// first and the releases run last.
// The time spent waiting goes on the file's meta, for the end-of-run table (slowest-files-reporter.ts):
// a file that waits holds a worker idle meanwhile.
const releases: (() => Promise<void>)[] = [];
// biome-ignore lint/correctness/noEmptyPattern: vitest wants the context destructured to pass the file next
beforeAll(async ({}, file) => {
  const url = inject('fileLockUrl');
  const started = Date.now();
  try {
    releases.push(await acquireFileLock(url, ranAlone() ? 'exclusive' : 'shared'));
    if (ranAlone()) return;
    for (const timer of declaredTimers()) releases.push(await acquireFileLock(url, 'exclusive', `timer:${timer}`));
  } finally {
    file.meta.lockWaitMs = Date.now() - started;
  }
}, 60 * 60_000);
afterAll(async () => {
  for (const release of releases.splice(0).reverse()) await release();
  forgetFileDeclarations();
});
