import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { repairRecord } from './streams';

describe('local stream records', () => {
  it("an empty map written by DynamoDB Local as {} reads as DynamoDB's empty map, at any depth", () => {
    const record = repairRecord({
      eventName: 'MODIFY',
      dynamodb: {
        NewImage: {
          pk: { S: 'C#1#KB' },
          live: {},
          nested: { M: { inner: {}, list: { L: [{}, { N: '1' }] } } },
        },
        OldImage: { pk: { S: 'C#1#KB' }, live: { M: { '7': { N: '3' } } } },
      },
    } as never);
    expect(unmarshall(record.dynamodb!.NewImage as never)).toEqual({
      pk: 'C#1#KB',
      live: {},
      nested: { inner: {}, list: [{}, 1] },
    });
    expect(unmarshall(record.dynamodb!.OldImage as never)).toEqual({ pk: 'C#1#KB', live: { '7': 3 } });
  });
});
