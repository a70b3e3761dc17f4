import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ALONE = /^runsAlone\(\);/m;
const LOCKED_PROJECTS = ['integration', 'e2e', 'campaign-scale'];
/** `usesTimers('a', 'b')` for the whole file, `holdTimer('a')` around a tick (tests/integration/helpers.ts) */
const TIMER_CALL = /\b(?:usesTimers|holdTimer)\(([^)]*)\)/g;

/** The timers whose lock a file takes, read from its text. */
export function timersOf(text: string): string[] {
  const names = new Set<string>();
  for (const call of text.matchAll(TIMER_CALL)) for (const name of call[1]!.matchAll(/'([^']+)'/g)) names.add(name[1]!);
  return [...names];
}

export interface PlannedFile<T> {
  file: T;
  timers: string[];
  /** what the file is expected to take: its last time, or its size when it has none */
  estimate: number;
}

/**
 * Orders files for `workers` workers so that files taking the same timer's lock run apart: two of
 * them at once and one waits, holding its worker idle, for as long as the other runs. Walks the
 * run as the workers would take the files (each takes the next when its file ends, by the
 * estimates) and gives each free worker the first file, in the given order, whose timers no running
 * file holds; the given order when every file left would wait.
 */
export function spreadTimers<T>(files: PlannedFile<T>[], workers: number): T[] {
  const pending = [...files];
  const running: { end: number; timers: string[] }[] = [];
  const free = Array.from({ length: Math.max(1, workers) }, () => 0);
  const order: T[] = [];
  while (pending.length) {
    free.sort((a, b) => a - b);
    const now = free.shift()!;
    const held = new Set(running.filter((r) => r.end > now).flatMap((r) => r.timers));
    const i = Math.max(
      0,
      pending.findIndex((f) => f.timers.every((t) => !held.has(t))),
    );
    const [next] = pending.splice(i, 1);
    order.push(next!.file);
    running.push({ end: now + next!.estimate, timers: next!.timers });
    free.push(now + next!.estimate);
  }
  return order;
}

/**
 * Vitest's order (failed first, then slowest first), except that the integration files that run
 * alone (`runsAlone()`, file-lock.ts) go first, one after the other, while the rest wait. Met in
 * the middle of the run, each of them would make the files already running drain before it starts,
 * leaving workers idle for as long as the slowest of those takes. The other integration files are
 * spread so that files taking one timer's lock do not meet (`spreadTimers`).
 */
export default class RunsAloneFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const text = new Map(
      // the projects whose files take the file locks (file-lock-setup.ts)
      sorted.filter((f) => LOCKED_PROJECTS.includes(f.project.name)).map((f) => [f, readFileSync(f.moduleId, 'utf8')]),
    );
    const alone = (f: TestSpecification) => ALONE.test(text.get(f) ?? '');
    // the fault run has a stack of its own: it starts with them, while the shared stack is least busy
    const fault = sorted.filter((f) => f.project.name === 'fault');
    const first = sorted.filter(alone);
    // the lock server holds the other files until these are in line (file-lock.ts)
    process.env.TEST_ALONE_FILES = String(first.length);
    const rest = sorted.filter((f) => !first.includes(f) && !fault.includes(f));
    const shared = rest.filter((f) => f.project.name === 'integration');
    const spread = spreadTimers(
      shared.map((f) => ({ file: f, timers: timersOf(text.get(f)!), estimate: this.estimate(f) })),
      Number(shared[0]?.project.config.maxWorkers ?? 4),
    );
    return [...fault, ...first, ...spread, ...rest.filter((f) => !shared.includes(f))];
  }

  /** A file's last duration in ms; without one (a fresh clone), 2 ms per byte of its text (a 20 kB file: 40 s). */
  private estimate(f: TestSpecification) {
    const key = `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const last = this.ctx.cache.getFileTestResults(key)?.duration;
    return last ?? (this.ctx.cache.getFileStats(key)?.size ?? 10_000) * 2;
  }
}
