import { describe, it, expect } from 'vitest';
import { inject } from 'vitest';
import { DynamoDBClient, DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { createTableInput, TTL_ATTRIBUTE } from '../../infra/table';
import { api, baseUrl, newCompany, realtimeClient, sleep } from './helpers';

describe('local runtime', () => {
  it('builds the table from the shared definition (keys, GSIs, TTL) that the CDK stack also uses', async () => {
    const client = new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    const TableName = inject('tableName');
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    const expected = createTableInput(TableName);
    expect(Table!.KeySchema).toEqual(expected.KeySchema);
    expect(
      Table!
        .GlobalSecondaryIndexes!.map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema }))
        .sort((a, b) => a.IndexName!.localeCompare(b.IndexName!)),
    ).toEqual(expected.GlobalSecondaryIndexes.map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema })));
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName }));
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe(TTL_ATTRIBUTE);
    client.destroy();
  });

  it('an unknown API route answers 404 with a code', async () => {
    const res = await api('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_ROUTE_NOT_FOUND' });
  });

  it('a body over the Lambda limit is refused with 413, not cut', async () => {
    const res = await api('POST', '/auth/login', {
      body: 'x'.repeat(6 * 1024 * 1024 + 10),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('serves the runtime config the SPA reads', async () => {
    const res = await fetch(`${baseUrl()}/config.json`);
    expect(await res.json()).toMatchObject({ apiUrl: '/api', wsUrl: '/ws' });
  });

  it('the @connections endpoint works with the management API client and answers 410 for a gone connection', async () => {
    const client = new ApiGatewayManagementApiClient({
      endpoint: baseUrl(),
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    await expect(
      client.send(new PostToConnectionCommand({ ConnectionId: 'gone', Data: Buffer.from('{}') })),
    ).rejects.toMatchObject({ name: 'GoneException' });
    client.destroy();
  });

  it('a closed WebSocket connection is removed from the company', async () => {
    const co = await newCompany('ws-close');
    const client = await realtimeClient(co.adminToken);
    await client.join('joinNotification');
    const connectionsBefore = await countConnections(co.companyId);
    expect(connectionsBefore).toBe(1);
    client.close();
    for (let i = 0; i < 50 && (await countConnections(co.companyId)) > 0; i++) await sleep(20);
    expect(await countConnections(co.companyId)).toBe(0);
  });
});

async function countConnections(companyId: number) {
  const { DynamoDBDocumentClient, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    }),
  );
  const out = await doc.send(
    new QueryCommand({
      TableName: inject('tableName'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `C#${companyId}#WS` },
    }),
  );
  return out.Count ?? 0;
}
