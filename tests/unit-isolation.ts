import { readFileSync } from 'node:fs';
import { globSync } from 'tinyglobby';

/** Where the unit project's files are: beside the code, the CDK assertions, the tooling's own tests. */
export const UNIT_FILES = [
  'shared/**/*.test.ts',
  'functions/**/*.test.ts',
  'infra/**/*.test.ts',
  'session-runner/**/*.test.ts',
  'web/src/**/*.test.{ts,tsx}',
  'tests/infra/**/*.test.ts',
  'tests/*.test.ts',
];

/**
 * What only a fresh module cache undoes: a module replaced (`vi.mock`, `vi.doMock`), the module
 * cache reset, globals stubbed, or the environment set (modules read it once: `config()` keeps
 * what it first saw). A unit file that does any of these runs isolated; the others share their
 * worker's modules with the files before them.
 */
export const NEEDS_ISOLATION =
  /\bvi\.(mock|doMock|unmock|resetModules|stubEnv|stubGlobal)\(|process\.env(\.\w+|\[[^\]]+\])\s*(\?\?)?=[^=]|delete process\.env/;

export function unitFilesNeedingIsolation(root = process.cwd()): string[] {
  return globSync(UNIT_FILES, { cwd: root, ignore: ['**/node_modules/**'] }).filter((file) =>
    NEEDS_ISOLATION.test(readFileSync(`${root}/${file}`, 'utf8')),
  );
}
