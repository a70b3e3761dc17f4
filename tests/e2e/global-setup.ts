import type { TestProject } from 'vitest/node';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestStack } from '../integration/global-setup';

export { teardown } from '../integration/global-setup';

/**
 * One local stack for the browser run, in memory, serving the built web app (`npm run test:e2e`
 * builds it first; this set-up builds nothing).
 */
export async function setup(project: TestProject) {
  const webDir = process.env.WEB_DIST || resolve(import.meta.dirname, '../../web/dist');
  if (!existsSync(resolve(webDir, 'index.html')))
    throw new Error('web/dist is missing: run `npm run build:web` (npm run test:e2e does)');
  await startTestStack(project, webDir);
}
