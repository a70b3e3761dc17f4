import type { TestProject } from 'vitest/node';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startStack, type LocalStack } from '../../infra/local/stack';

let stack: LocalStack | undefined;

/**
 * One local stack for the browser run, in memory, serving the built web app (`npm run test:e2e`
 * builds it first; this set-up builds nothing).
 */
export async function setup(project: TestProject) {
  const webDir = resolve(import.meta.dirname, '../../web/dist');
  if (!existsSync(resolve(webDir, 'index.html'))) throw new Error('web/dist is missing: run `npm run build:web` (npm run test:e2e does)');
  stack = await startStack({ adminEmail: 'admin@admin.com', adminPassword: 'admin123', timers: false, retryBaseMs: 50, logLevel: 'error', webDir });
  project.provide('baseUrl', stack.url);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', process.env.TABLE_NAME!);
}

export async function teardown() {
  await stack?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** set-up no API offers (expiring a company) */
    dynamoEndpoint: string;
    tableName: string;
  }
}
