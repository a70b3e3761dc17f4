import { configDefaults, defineConfig } from 'vitest/config';
import RunsAloneFirst from './tests/integration/sequencer';
import { UNIT_FILES, unitFilesNeedingIsolation } from './tests/unit-isolation';

// `TEST_NOW=2027-02-28T12:00:00Z npm test` runs every suite as if that instant were now: the stack,
// the session runner and the test workers all read the same moved clock (infra/local/clock-shift.mjs).
if (process.env.TEST_NOW) {
  const at = Date.parse(process.env.TEST_NOW);
  if (Number.isNaN(at)) throw new Error(`TEST_NOW is not a date: ${process.env.TEST_NOW}`);
  process.env.TEST_CLOCK_OFFSET_MS = String(at - Date.now());
}
const setupFiles = ['infra/local/clock-shift.mjs'];
/** The unit files that replace modules or the environment: each in a fresh worker (tests/unit-isolation.ts). */
const isolatedUnitFiles = unitFilesNeedingIsolation();
/** The browser file that waits out real campaign pacing: a suite of its own (`npm run test:campaign-scale`). */
const CAMPAIGN_SCALE = 'tests/e2e/campaigns-scale.test.ts';
/** Test files at once in `npm test` (unit and integration share the pool). */
const WORKERS = Number(process.env.TEST_WORKERS ?? 4);

/**
 * Test projects (docs/testing.md): `unit` (beside the code, plus infra assertions), `integration`
 * (over HTTP against the local stack, started once per run with DynamoDB Local in memory), `fault`
 * (delivery while the session runner is killed, on a stack of its own), `fault-full` (the fleet and
 * the larger fault run, `npm run test:fault-full`, which CI runs), `e2e` (real Chromium, run by
 * `npm run test:e2e`) and `campaign-scale` (the paced 200-contact campaign in Chromium, which CI runs). Every run ends with its slowest files (tests/slowest-files-reporter.ts).
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/slowest-files-reporter.ts'],
    // the integration files that run alone go first (tests/integration/sequencer.ts)
    sequence: { sequencer: RunsAloneFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT_FILES,
          // One worker runs many unit files on one module cache: importing the code anew for every
          // file was half of the unit files' CPU. A file that replaces modules or the environment
          // (vi.mock, vi.stubEnv, ...) runs in a fresh worker of its own (below).
          exclude: [...configDefaults.exclude, ...isolatedUnitFiles],
          isolate: false,
          environment: 'node',
          setupFiles,
          testTimeout: 60_000,
          // beside the integration files, in the same pool of workers
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: isolatedUnitFiles,
          environment: 'node',
          setupFiles,
          testTimeout: 60_000,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'integration',
          // the fuzz suite shares the integration stack
          include: ['tests/integration/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          // every file holds the stack's file lock: shared, or alone when it calls `runsAlone()`
          setupFiles: [...setupFiles, 'tests/integration/file-lock-setup.ts'],
          // as the unit files, one module cache per worker: the helpers forget each file's
          // declarations, and useStackFromWorker empties the cache for a file that loads functions/lib
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Four files at once on one stack; a file that acts on the whole platform (timers over
          // every company, platform settings, announcements, data upgrades) runs alone.
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'fault',
          // its own stack (the runner is killed on purpose), started first beside the files that
          // run alone (tests/integration/sequencer.ts), while the shared stack is least busy
          include: ['tests/fault/**/*.test.ts'],
          exclude: ['tests/fault/**/*.full.test.ts'],
          setupFiles,
          testTimeout: 300_000,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'fault-full',
          // the fleet (3 runners, kill -9, SIGTERM, scale out) and the larger fault run: minutes of
          // real traffic and real process deaths; CI runs them beside `npm test` (npm run test:fault-full)
          include: ['tests/fault/**/*.full.test.ts'],
          setupFiles,
          testTimeout: 900_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // real campaign pacing for a minute or more: CI runs it as a suite of its own (below)
          exclude: [...configDefaults.exclude, CAMPAIGN_SCALE],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // the same locks as the integration files: runsAlone(), usesTimers()
          setupFiles: ['tests/integration/file-lock-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // browsers at once (E2E_WORKERS): the browser files mostly wait (pages, live updates,
          // campaign pacing); three took longer than two (436 s against 425 s) while the campaign
          // files and billing held locks for their whole length
          maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
        },
      },
      {
        test: {
          name: 'campaign-scale',
          // issue 11's campaign on the simulator, paced in real time (200 contacts in CI,
          // `npm run test:campaign-scale`): a minute and more of waiting on pacing in one file
          include: [CAMPAIGN_SCALE],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/integration/file-lock-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
