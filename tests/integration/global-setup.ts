import type { TestProject } from 'vitest/node';
import { startStack, type LocalStack } from '../../infra/local/stack';

let stack: LocalStack | undefined;

/**
 * One local stack per test run: DynamoDB Local in memory, gateways on free ports. The browser
 * suite starts it the same way, with the built web app.
 */
export async function startTestStack(project: TestProject, webDir?: string) {
  stack = await startStack({
    adminEmail: 'admin@admin.com',
    adminPassword: 'admin123',
    timers: false,
    retryBaseMs: 50,
    logLevel: 'error',
    webDir,
  });
  project.provide('baseUrl', stack.url);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', process.env.TABLE_NAME!);
}

export const setup = (project: TestProject) => startTestStack(project);

export async function teardown() {
  await stack?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** for test set-up that no API offers (expiring a company); assertions go through the API */
    dynamoEndpoint: string;
    tableName: string;
  }
}
