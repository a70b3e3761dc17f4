import { describe, expect, it } from 'vitest';
import { expectedRefusal, sdkDetail } from './db';

describe("the SDK's log entries", () => {
  it('name the command and the error instead of [object Object]', () => {
    const error = Object.assign(new Error('Throughput exceeds the current capacity'), {
      name: 'ProvisionedThroughputExceededException',
    });
    expect(sdkDetail({ clientName: 'DynamoDBClient', commandName: 'QueryCommand', input: {}, error })).toBe(
      'QueryCommand ProvisionedThroughputExceededException: Throughput exceeds the current capacity',
    );
    expect(sdkDetail(new TypeError('socket hang up'))).toBe('TypeError: socket hang up');
    expect(sdkDetail('plain text')).toBe('plain text');
    expect(sdkDetail({ other: 1 })).toBe('{"other":1}');
  });

  it('a condition that did not hold is not logged as an error; other failures are', () => {
    const refusal = Object.assign(new Error('The conditional request failed'), {
      name: 'ConditionalCheckFailedException',
    });
    expect(expectedRefusal({ commandName: 'PutItemCommand', error: refusal })).toBe(true);
    expect(expectedRefusal({ commandName: 'PutItemCommand', error: new Error('socket hang up') })).toBe(false);
    expect(expectedRefusal('text')).toBe(false);
  });
});

describe('a stalled DynamoDB', () => {
  it('a request nobody answers ends with a timeout (the SDK retries it, then the call fails) instead of hanging', async () => {
    const { createServer } = await import('node:net');
    const { resetConfig } = await import('./config');
    const { getItem, resetDb } = await import('./db');
    // accepts connections and reads requests, never answers: a network path that went silent
    const held = new Set<import('node:net').Socket>();
    const server = createServer((socket) => {
      held.add(socket);
      socket.on('data', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const env = { ...process.env };
    Object.assign(process.env, {
      TABLE_NAME: 'stalled',
      MEDIA_BUCKET: 'unused',
      AWS_REGION: 'us-east-1',
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}`,
      DYNAMODB_REQUEST_TIMEOUT_MS: '100',
      LOG_LEVEL: 'error',
    });
    resetConfig();
    resetDb();
    try {
      const error = await getItem({ pk: 'a', sk: 'b' }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(error?.name).toBe('TimeoutError');
      // the SDK tried again before giving up: each attempt reached the silent server
      expect(held.size).toBeGreaterThanOrEqual(2);
    } finally {
      process.env = env;
      resetConfig();
      resetDb();
      for (const socket of held) socket.destroy();
      server.close();
    }
  });
});
