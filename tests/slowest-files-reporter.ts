import type { Reporter, TestModule } from 'vitest/node';

/** How many files the end-of-run table names. */
const SHOWN = 10;

export interface FileTime {
  project: string;
  file: string;
  /** import, set-up and tests of the file, in milliseconds */
  ms: number;
  /** of which waiting for the stack's or a timer's lock (file-lock-setup.ts) */
  lockWaitMs?: number;
}

declare module 'vitest' {
  interface TaskMeta {
    /** set by tests/integration/file-lock-setup.ts */
    lockWaitMs?: number;
  }
}

/** The files that took longest, slowest first, as the table prints them. */
export function slowestFiles(files: FileTime[], shown = SHOWN): string[] {
  const top = [...files].sort((a, b) => b.ms - a.ms).slice(0, shown);
  if (top.length === 0) return [];
  const width = Math.max(...top.map((f) => `${f.project} ${f.file}`.length));
  return [
    `Slowest ${top.length} test files:`,
    ...top.map(
      (f) =>
        `  ${`${f.project} ${f.file}`.padEnd(width)}  ${seconds(f.ms)} s${f.lockWaitMs && f.lockWaitMs >= 1000 ? `  (waited ${seconds(f.lockWaitMs).trim()} s for a lock)` : ''}`,
    ),
  ];
}

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);

/**
 * How long files waited for a lock (the stack's, to run alone, or a timer's), in all: a worker
 * that holds a waiting file does nothing else meanwhile.
 */
export function lockWaits(files: FileTime[]): string[] {
  const waited = files.filter((f) => (f.lockWaitMs ?? 0) >= 1000).sort((a, b) => b.lockWaitMs! - a.lockWaitMs!);
  if (waited.length === 0) return [];
  const total = waited.reduce((sum, f) => sum + f.lockWaitMs!, 0);
  return [
    `Files waited ${seconds(total).trim()} s for locks in all (${waited.length} files; longest: ${waited
      .slice(0, 3)
      .map((f) => `${f.file} ${seconds(f.lockWaitMs!).trim()} s`)
      .join(', ')})`,
  ];
}

/**
 * Prints the slowest test files at the end of a run, so a file that starts waiting on real time
 * shows up in every run's output (docs/testing.md).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        project: m.project.name,
        file: m.relativeModuleId,
        ms: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        lockWaitMs: m.meta().lockWaitMs,
      };
    });
    const lines = [...slowestFiles(files), ...lockWaits(files)];
    if (lines.length > 0) console.log(`\n${lines.join('\n')}\n`);
  }
}
