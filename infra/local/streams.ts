import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_AUTHORIZATION } from '../../functions/lib/local-aws';

/**
 * The local twin of a Lambda on the table's DynamoDB stream: polls DynamoDB Local's own Streams API
 * (DescribeStream, GetShardIterator, GetRecords, as Lambda's poller does) and hands each shard's
 * records, in order, to the consumer as a DynamoDBStreamEvent. A batch whose consumer fails is handed
 * again after a pause (the stream keeps it, as on AWS). Shards open at start are read from their end
 * (what came before is in the persisted index already); shards that open later, from their start.
 */
export interface StreamPoller {
  stop(): Promise<void>;
}

/**
 * DynamoDB Local's Streams API writes an empty map attribute as `{}` where DynamoDB writes
 * `{ "M": {} }`, which no reader of a record can decode: the record is given DynamoDB's form.
 */
type Value = Record<string, unknown>;
function repairValue(value: Value): Value {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M) return { M: repairImage(value.M as Record<string, Value>) };
  if (Array.isArray(value.L)) return { L: (value.L as Value[]).map(repairValue) };
  return value;
}
const repairImage = (image: Record<string, Value>) =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, repairValue(value)]));

export function repairRecord(record: DynamoDBRecord): DynamoDBRecord {
  const images = record.dynamodb;
  if (!images) return record;
  const fixed = { ...images };
  for (const field of ['NewImage', 'OldImage', 'Keys'] as const)
    if (images[field]) fixed[field] = repairImage(images[field] as Record<string, Value>) as typeof images.NewImage;
  return { ...record, dynamodb: fixed };
}

const POLL_MS = 100;
const RETRY_MS = 1000;

export async function startStreamPoller(opts: {
  endpoint: string;
  tableName: string;
  batchSize: number;
  consumer: (event: DynamoDBStreamEvent) => Promise<unknown>;
  onError: (error: unknown) => void;
}): Promise<StreamPoller> {
  const client = new DynamoDBClient({
    endpoint: opts.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const table = await client.send(new DescribeTableCommand({ TableName: opts.tableName }));
  client.destroy();
  const streamArn = table.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${opts.tableName} has no stream`);

  // the Streams API speaks the same JSON protocol on the same endpoint, under its own target
  const call = async <T>(action: string, body: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await post(action, body);
    } catch (err) {
      // a kept-alive connection closed as the request left: once more on a new one
      if (!(err instanceof TypeError)) throw err;
      res = await post(action, body);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`DynamoDB Streams ${action}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  };
  const post = (action: string, body: unknown) =>
    fetch(opts.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDBStreams_20120810.${action}`,
        authorization: LOCAL_AUTHORIZATION,
      },
      body: JSON.stringify(body),
    });

  const iterators = new Map<string, string>();
  const known = new Set<string>();
  let first = true;
  let stopped = false;

  const discover = async () => {
    const out = await call<{ StreamDescription: { Shards?: { ShardId: string }[] } }>('DescribeStream', {
      StreamArn: streamArn,
    });
    for (const shard of out.StreamDescription.Shards ?? []) {
      if (known.has(shard.ShardId)) continue;
      known.add(shard.ShardId);
      const it = await call<{ ShardIterator?: string }>('GetShardIterator', {
        StreamArn: streamArn,
        ShardId: shard.ShardId,
        ShardIteratorType: first ? 'LATEST' : 'TRIM_HORIZON',
      });
      if (it.ShardIterator) iterators.set(shard.ShardId, it.ShardIterator);
    }
    first = false;
  };

  const pollShard = async (shardId: string, iterator: string) => {
    const out = await call<{ Records?: DynamoDBRecord[]; NextShardIterator?: string }>('GetRecords', {
      ShardIterator: iterator,
      Limit: opts.batchSize,
    });
    if (out.Records?.length) await opts.consumer({ Records: out.Records.map(repairRecord) });
    if (out.NextShardIterator) iterators.set(shardId, out.NextShardIterator);
    else iterators.delete(shardId);
    return out.Records?.length ?? 0;
  };

  const loop = (async () => {
    let rounds = 0;
    while (!stopped) {
      let got = 0;
      try {
        if (rounds++ % 20 === 0) await discover();
        for (const [shardId, iterator] of iterators) got += await pollShard(shardId, iterator);
      } catch (err) {
        if (stopped) break;
        opts.onError(err);
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      if (!got) await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
