// first: a run with a fixed "today" (TEST_NOW) moves the stack's clock before anything reads it
import '../../infra/local/clock-shift.mjs';
import type { TestProject } from 'vitest/node';
import { startStack, type LocalStack } from '../../infra/local/stack';
import { SHARED_DYNAMO_ENV } from '../../infra/local/dynamo';
import { TEST_PASSWORD_HASH_COST } from './stack-options';
import { type FileLockServer, startFileLock } from './file-lock';

let stack: LocalStack | undefined;
let fileLock: FileLockServer | undefined;

/**
 * One local stack per test run: DynamoDB Local in memory, gateways on free ports, and the files'
 * locks (file-lock.ts). The browser suite starts it the same way, with the built web app.
 */
export async function startTestStack(project: TestProject, webDir?: string) {
  // campaign pacing: one configured second lasts 5 ms, so interval rules are tested without waiting minutes
  process.env.CAMPAIGN_SECOND_MS ??= '5';
  // number checks: a session's batches go one a second instead of one per 5 s (a list added item by
  // item is one check per item; campaigns-more.test.ts reads the interval it asserts from here)
  process.env.NUMBER_CHECK_INTERVAL_MS ??= '1000';
  // AI prompts and integrations: a provider that hangs is given up on quickly (timeout, 2 retries)
  process.env.AI_TIMEOUT_MS ??= '1500';
  process.env.AI_RETRY_BASE_MS ??= '50';
  stack = await startStack({
    adminEmail: 'admin@admin.com',
    adminPassword: 'admin123',
    timers: false,
    retryBaseMs: 50,
    logLevel: process.env.TEST_LOG_LEVEL || 'error',
    webDir,
    // The suite signs up and logs in hundreds of times from loopback; rate-limit tests pick other
    // addresses through x-forwarded-for and meet the real budgets.
    trustForwardedFor: true,
    rateLimitExemptAddresses: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
    sessionCacheSeconds: 0,
    passwordHashCost: TEST_PASSWORD_HASH_COST,
    shortRun: true,
    healthOnDemand: true,
  });
  // the files and stacks that need a DynamoDB of their own (the runner's stores, the fault run) make
  // a table on this one: the workers start after the global set-up and inherit it
  process.env[SHARED_DYNAMO_ENV] = process.env.DYNAMODB_ENDPOINT;
  fileLock = await startFileLock({ aloneFiles: () => Number(process.env.TEST_ALONE_FILES || 0) });
  project.provide('fileLockUrl', fileLock.url);
  project.provide('baseUrl', stack.url);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', process.env.TABLE_NAME!);
}

export const setup = (project: TestProject) => startTestStack(project);

export async function teardown() {
  await fileLock?.close();
  await stack?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** for test set-up that no API offers (expiring a company); assertions go through the API */
    dynamoEndpoint: string;
    tableName: string;
    /** the integration files' readers-writer lock (file-lock.ts) */
    fileLockUrl: string;
  }
}
