import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ALONE = /^runsAlone\(\);/m;

/**
 * Vitest's order (failed first, then slowest first), except that the integration files that run
 * alone (`runsAlone()`, file-lock.ts) go first, one after the other, while the rest wait. Met in
 * the middle of the run, each of them would make the files already running drain before it starts,
 * leaving workers idle for as long as the slowest of those takes.
 */
export default class RunsAloneFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const alone = (f: TestSpecification) => ALONE.test(readFileSync(f.moduleId, 'utf8'));
    // the fault run has a stack of its own: it starts with them, while the shared stack is least busy
    const fault = sorted.filter((f) => f.project.name === 'fault');
    const first = sorted.filter(alone);
    // the lock server holds the other files until these are in line (file-lock.ts)
    process.env.TEST_ALONE_FILES = String(first.length);
    return [...fault, ...first, ...sorted.filter((f) => !first.includes(f) && !fault.includes(f))];
  }
}
