import { describe, expect, it } from 'vitest';
import { lockWaits, slowestFiles } from './slowest-files-reporter';

describe('slowest files table', () => {
  it('names the slowest files first, at most the number asked, with seconds', () => {
    const lines = slowestFiles(
      [
        { project: 'unit', file: 'a.test.ts', ms: 1200 },
        { project: 'integration', file: 'b.test.ts', ms: 45_000 },
        { project: 'unit', file: 'c.test.ts', ms: 300 },
      ],
      2,
    );
    expect(lines[0]).toBe('Slowest 2 test files:');
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/))).toEqual([
      ['integration', 'b.test.ts', '45.0', 's'],
      ['unit', 'a.test.ts', '1.2', 's'],
    ]);
  });

  it('prints nothing for a run without files', () => {
    expect(slowestFiles([])).toEqual([]);
  });

  it('says how long a slow file waited for a lock, and the waits of the whole run', () => {
    const files = [
      { project: 'integration', file: 'a.test.ts', ms: 60_000, lockWaitMs: 40_000 },
      { project: 'integration', file: 'b.test.ts', ms: 30_000, lockWaitMs: 500 },
      { project: 'integration', file: 'c.test.ts', ms: 20_000, lockWaitMs: 12_500 },
    ];
    expect(
      slowestFiles(files, 2)
        .slice(1)
        .map((l) => l.trim()),
    ).toEqual(['integration a.test.ts    60.0 s  (waited 40.0 s for a lock)', 'integration b.test.ts    30.0 s']);
    // waits under a second are the lock's round trip, not a wait
    expect(lockWaits(files)).toEqual([
      'Files waited 52.5 s for locks in all (2 files; longest: a.test.ts 40.0 s, c.test.ts 12.5 s)',
    ]);
    expect(lockWaits([{ project: 'unit', file: 'd.test.ts', ms: 10 }])).toEqual([]);
  });
});
