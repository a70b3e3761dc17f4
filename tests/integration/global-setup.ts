import type { TestProject } from 'vitest/node';
import { startStack, type LocalStack } from '../../infra/local/stack';

let stack: LocalStack | undefined;

/** One local stack per test run: DynamoDB Local in memory, gateways on free ports. */
export async function setup(project: TestProject) {
  stack = await startStack({ adminEmail: 'admin@admin.com', adminPassword: 'admin123', timers: false, retryBaseMs: 50, logLevel: 'error' });
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
    /** for test set-up that no API offers (expiring a company); assertions go through the API */
    dynamoEndpoint: string;
    tableName: string;
  }
}
