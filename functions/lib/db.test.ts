import { createServer, type AddressInfo, type Socket } from 'node:net';
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
    // a transaction cancelled only because a condition did not hold is an answer too
    const cancelled = (...codes: string[]) =>
      Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: codes.map((Code) => ({ Code })),
      });
    expect(expectedRefusal({ error: cancelled('ConditionalCheckFailed', 'None') })).toBe(true);
    expect(expectedRefusal({ error: cancelled('None', 'TransactionConflict') })).toBe(false);
    expect(expectedRefusal({ error: cancelled('ConditionalCheckFailed', 'ThrottlingError') })).toBe(false);
  });
});

/**
 * A DynamoDB endpoint that accepts connections and reads requests but never answers (a network path
 * that went silent), the config pointed at it with `env`; `run` gets the sockets it accepted.
 */
async function withStalledDynamo(env: Record<string, string>, run: (held: Set<Socket>) => Promise<void>) {
  const { resetConfig } = await import('./config');
  const { resetDb } = await import('./db');
  const held = new Set<Socket>();
  const server = createServer((socket) => {
    held.add(socket);
    socket.on('data', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const saved = { ...process.env };
  Object.assign(process.env, {
    TABLE_NAME: 'stalled',
    MEDIA_BUCKET: 'unused',
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    ...env,
  });
  resetConfig();
  resetDb();
  try {
    await run(held);
  } finally {
    process.env = saved;
    resetConfig();
    resetDb();
    for (const socket of held) socket.destroy();
    server.close();
  }
}

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (err: Error) => err,
  );

describe('a stalled DynamoDB', () => {
  it('a request nobody answers ends with a timeout (the SDK retries it, then the call fails) instead of hanging', async () => {
    const { getItem } = await import('./db');
    await withStalledDynamo({ DYNAMODB_REQUEST_TIMEOUT_MS: '100' }, async (held) => {
      expect((await failureOf(getItem({ pk: 'a', sk: 'b' })))?.name).toBe('TimeoutError');
      // the SDK tried again before giving up: each attempt reached the silent server
      expect(held.size).toBeGreaterThanOrEqual(2);
    });
  });

  it("R10: the urgent client (the runner's heartbeat) has its own short timeout, whatever the main client's", async () => {
    const { putItem } = await import('./db');
    // the main client would wait a minute per attempt: the test would time out through it
    await withStalledDynamo(
      { DYNAMODB_REQUEST_TIMEOUT_MS: '60000', DYNAMODB_URGENT_TIMEOUT_MS: '100' },
      async (held) => {
        expect((await failureOf(putItem({ pk: 'WRUNNERS', sk: 'r1' }, { urgent: true })))?.name).toBe('TimeoutError');
        // two attempts at most: a heartbeat late is a heartbeat missed, the next one is due soon
        expect(held.size).toBeLessThanOrEqual(2);
      },
    );
  }, 10_000);
});
