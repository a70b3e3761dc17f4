import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;
/** Every Lambda handler module: functions/http, functions/ws and functions/jobs. */
const entries = ['http', 'ws', 'jobs'].flatMap((dir) =>
  readdirSync(join(here, dir))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => `${dir}/${file}`),
);

describe('Lambda entry points', () => {
  it('there are entry points to check', () => {
    expect(entries.length).toBeGreaterThan(40);
  });

  // Realtime and the ticket service only announce what happened (a socket opened, a ticket moved);
  // presence and automatic assignment register for it when they load (functions/lib/startup.ts).
  // A bundle without them would close sockets and move tickets with nobody listening.
  it.each(entries)('%s loads the domain handlers first (#lib/startup)', (entry) => {
    const firstImport = readFileSync(join(here, entry), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import '#lib/startup';");
  });
});
