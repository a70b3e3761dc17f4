import { resolve } from 'node:path';

/** The repository root: entry points, the lock file, web/dist and the session runner's build context. */
export const ROOT = resolve(import.meta.dirname, '../..');
