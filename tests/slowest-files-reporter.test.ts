import { describe, expect, it } from 'vitest';
import { slowestFiles } from './slowest-files-reporter';

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
});
