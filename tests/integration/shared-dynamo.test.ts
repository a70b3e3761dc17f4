import { describe, expect, it, inject } from 'vitest';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { sharedDynamo, startTestTable } from '../../infra/local/dynamo';

/**
 * The files and stacks that need a DynamoDB of their own (the session runner's stores, the fault
 * run) make a table on the run's DynamoDB Local instead of starting a JVM each (infra/local/dynamo.ts,
 * SHARED_DYNAMO_ENV). If the workers stopped inheriting its endpoint, each would quietly start its
 * own JVM again: the first check says so.
 */
const client = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

describe('a table of its own on the shared DynamoDB Local', () => {
  it('the workers know the stack’s DynamoDB Local', () => {
    expect(sharedDynamo()).toBe(inject('dynamoEndpoint'));
  });

  it('two tables of one name never meet the stack’s or each other, and each is gone once stopped', async () => {
    const [a, b] = await Promise.all([startTestTable('runner-test'), startTestTable('runner-test')]);
    const doc = client();
    try {
      expect(a.endpoint).toBe(inject('dynamoEndpoint'));
      expect(a.tableName).not.toBe(b.tableName);
      expect([a.tableName, b.tableName]).not.toContain(inject('tableName'));
      const key = { pk: 'SHARED#1', sk: 'A' };
      await doc.send(new PutCommand({ TableName: a.tableName, Item: { ...key, from: 'a' } }));
      expect((await doc.send(new GetCommand({ TableName: b.tableName, Key: key }))).Item).toBeUndefined();
      expect((await doc.send(new GetCommand({ TableName: inject('tableName'), Key: key }))).Item).toBeUndefined();
      expect((await doc.send(new GetCommand({ TableName: a.tableName, Key: key }))).Item?.from).toBe('a');
    } finally {
      await a.stop();
      await b.stop();
    }
    const left = (await doc.send(new ListTablesCommand({}))).TableNames ?? [];
    expect(left).not.toContain(a.tableName);
    expect(left).not.toContain(b.tableName);
    expect(left).toContain(inject('tableName'));
    doc.destroy();
  });
});
