import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { api, newCompany, realtimeClient, table } from './helpers';

/** The realtime mechanism itself (functions/lib/realtime.ts, functions/ws/*, the local gateway). */

const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);
const TableName = inject('tableName');

/** The connection records of a company (`C#<id>#WS` / `CONN#<connectionId>`). */
async function connectionsOf(companyId: number) {
  const out = await doc.send(
    new QueryCommand({
      TableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `C#${companyId}#WS` },
    }),
  );
  return (out.Items ?? []) as { pk: string; sk: string; connectionId: string }[];
}

const userItem = (companyId: number, userId: number) =>
  table().get(`C#${companyId}`, `USER#${String(userId).padStart(10, '0')}`);

const tagEvent = (companyId: number, name: string) => (e: { event: string; data: any }) =>
  e.event === `company-${companyId}-tag` && e.data.tag?.name === name;

describe('realtime delivery', () => {
  it('a socket that connects while its company publishes keeps receiving events (a post during $connect is no proof the socket is gone)', async () => {
    const co = await newCompany('rt-connect-race');
    // Events of the company published back to back, as a campaign or a connection's contact check does.
    let publishing = true;
    let published = 0;
    const publisher = async (lane: number) => {
      for (let n = 0; publishing; n++) {
        const res = await api('POST', '/tags', { token: co.adminToken, body: { name: `Carga ${lane}-${n}` } });
        expect(res.status).toBe(201);
        published++;
      }
    };
    const storm = Promise.all([0, 1, 2, 3].map(publisher));
    const sockets: Awaited<ReturnType<typeof realtimeClient>>[] = [];
    try {
      // each socket's $connect runs while posts to the company's connections are in flight
      for (let i = 0; i < 12; i++) sockets.push(await realtimeClient(co.adminToken));
    } finally {
      publishing = false;
      await storm;
    }
    expect(published).toBeGreaterThan(12);

    const marker = await api('POST', '/tags', { token: co.adminToken, body: { name: 'Depois da carga' } });
    expect(marker.status).toBe(201);
    const missing: number[] = [];
    await Promise.all(
      sockets.map((s, i) => s.waitFor(tagEvent(co.companyId, 'Depois da carga'), 5000).catch(() => missing.push(i))),
    );
    for (const s of sockets) s.close();
    expect(missing, 'sockets that got no event after the burst').toEqual([]);
  });

  it('an open socket whose record is gone is closed when it next speaks, so the client registers again', async () => {
    const co = await newCompany('rt-orphan');
    const client = await realtimeClient(co.adminToken);
    await client.join('ping');
    const [record] = await connectionsOf(co.companyId);
    expect(record).toBeTruthy();
    // what the 410 during $connect used to leave behind: an open socket with no record to publish to
    await doc.send(new DeleteCommand({ TableName, Key: { pk: record!.pk, sk: record!.sk } }));
    await doc.send(new DeleteCommand({ TableName, Key: { pk: `WS#${record!.connectionId}`, sk: 'WS' } }));
    const closed = new Promise<number>((done) => client.ws.once('close', (code) => done(code)));
    client.send('ping');
    expect(await closed).toBe(1000);
  });

  it('userStatus keeps one presence entry per socket (moved to the new expiry), and closing the socket clears it', async () => {
    const co = await newCompany('rt-presence');
    const client = await realtimeClient(co.adminToken);
    const entries = async () => [...(((await userItem(co.companyId, co.admin.id))?.sockets as Set<string>) ?? [])];
    // expiries are whole seconds: each userStatus here lands in a later one
    for (let i = 0; i < 3; i++) {
      await client.join('userStatus');
      await new Promise((r) => setTimeout(r, 1100));
    }
    const [record] = await connectionsOf(co.companyId);
    expect(await entries()).toHaveLength(1);
    expect((await entries())[0]).toMatch(new RegExp(`^${record!.connectionId}@`));
    client.close();
    const started = Date.now();
    while ((await entries()).length && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(await entries()).toEqual([]);
  });
});
