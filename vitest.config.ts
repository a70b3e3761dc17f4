import { defineConfig } from 'vitest/config';

// `TEST_NOW=2027-02-28T12:00:00Z npm test` runs every suite as if that instant were now: the stack,
// the session runner and the test workers all read the same moved clock (infra/local/clock-shift.mjs).
if (process.env.TEST_NOW) {
  const at = Date.parse(process.env.TEST_NOW);
  if (Number.isNaN(at)) throw new Error(`TEST_NOW is not a date: ${process.env.TEST_NOW}`);
  process.env.TEST_CLOCK_OFFSET_MS = String(at - Date.now());
}
const setupFiles = ['infra/local/clock-shift.mjs'];

/**
 * Test projects (docs/testing.md): `unit` (beside the code, plus infra assertions), `integration`
 * (over HTTP against the local stack, started once per run with DynamoDB Local in memory), `fault`
 * (delivery while the session runner is killed, on a stack of its own), `fault-full` (the fleet and
 * the larger fault run, `npm run test:fault-full`, which CI runs) and `e2e` (real Chromium, run by
 * `npm run test:e2e`). Every run ends with its slowest files (tests/slowest-files-reporter.ts).
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/slowest-files-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/**/*.test.ts',
            'functions/**/*.test.ts',
            'infra/**/*.test.ts',
            'session-runner/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
            'tests/infra/**/*.test.ts',
            'tests/*.test.ts',
          ],
          environment: 'node',
          setupFiles,
          testTimeout: 60_000,
          // first, one file a core; the integration files start when these are done (groupOrder):
          // together they overload two cores and the stack's answers time out
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          // the fuzz suite shares the integration stack
          include: ['tests/integration/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          setupFiles,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One file at a time. Four at once took the project from about 16 to 7.4 minutes, but some
          // files act on the whole platform (timers over every company, platform settings and
          // announcements, data upgrades) and failed, in one run of two, with other files beside
          // them (docs/testing.md): those need a group or a stack of their own first.
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'fault',
          // its own stack (the runner is killed on purpose), after the other projects: it loads the machine
          include: ['tests/fault/**/*.test.ts'],
          exclude: ['tests/fault/**/*.full.test.ts'],
          setupFiles,
          testTimeout: 300_000,
          sequence: { groupOrder: 2 },
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
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser at a time: two at once pass (8.5 minutes instead of about 14), but the
          // files share platform-wide state as the integration files do (docs/testing.md).
          fileParallelism: false,
        },
      },
    ],
  },
});
