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
