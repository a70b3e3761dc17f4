import { join, resolve } from 'node:path';
import { startDynamo } from './dynamo';
import { freePort } from './ports';

/**
 * `npm run reindex`: rebuilds the search index from the table (functions/lib/search/reindex.ts).
 * - Locally (default): the embedded index under DATA_DIR/search (default .data), read from the
 *   DynamoDB Local data under DATA_DIR/dynamodb. Run it while `npm start` is stopped.
 * - On AWS: with SEARCH_ENDPOINT (the stack's SearchEndpoint output), TABLE_NAME (TableName) and
 *   AWS credentials allowed to query the table and write the domain, it rebuilds the OpenSearch index.
 */
const onAws = Boolean(process.env.SEARCH_ENDPOINT);
let stopDynamo: (() => Promise<void>) | undefined;
if (!onAws) {
  const dataDir = resolve(process.env.DATA_DIR || '.data');
  const dynamo = await startDynamo({ port: await freePort(), dataDir: join(dataDir, 'dynamodb'), tableName: 'inbox' });
  stopDynamo = dynamo.stop;
  Object.assign(process.env, {
    TABLE_NAME: 'inbox',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    SEARCH_DIR: join(dataDir, 'search'),
  });
}
// config.ts asks for the media bucket; the reindex reads no media
process.env.MEDIA_BUCKET ||= 'unused';

const { searchPort, closeSearch } = await import('../../functions/lib/search/index');
const { OpenSearch } = await import('../../functions/lib/search/opensearch');
const { MemorySearch } = await import('../../functions/lib/search/memory');
const { reindexAll } = await import('../../functions/lib/search/reindex');

const port = searchPort();
if (port instanceof OpenSearch) await port.ensureIndex();
const started = Date.now();
const { documents } = await reindexAll(port, (companyId, counts) =>
  console.log(`company ${companyId}: ${counts.tickets} tickets, ${counts.documents} documents`),
);
if (port instanceof MemorySearch) port.compact();
closeSearch();
console.log(`reindexed ${documents} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await stopDynamo?.();
