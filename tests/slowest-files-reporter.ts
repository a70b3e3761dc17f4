import type { Reporter, TestModule } from 'vitest/node';

/** How many files the end-of-run table names. */
const SHOWN = 10;

export interface FileTime {
  project: string;
  file: string;
  /** import, set-up and tests of the file, in milliseconds */
  ms: number;
}

/** The files that took longest, slowest first, as the table prints them. */
export function slowestFiles(files: FileTime[], shown = SHOWN): string[] {
  const top = [...files].sort((a, b) => b.ms - a.ms).slice(0, shown);
  if (top.length === 0) return [];
  const width = Math.max(...top.map((f) => `${f.project} ${f.file}`.length));
  return [
    `Slowest ${top.length} test files:`,
    ...top.map((f) => `  ${`${f.project} ${f.file}`.padEnd(width)}  ${(f.ms / 1000).toFixed(1).padStart(6)} s`),
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
      };
    });
    const lines = slowestFiles(files);
    if (lines.length > 0) console.log(`\n${lines.join('\n')}\n`);
  }
}
