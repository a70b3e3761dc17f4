import '#lib/startup';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { applyChanges } from '#lib/search/feed';
import { searchPort } from '#lib/search/index';

/**
 * The table's change stream -> the search index (a Lambda on the DynamoDB stream with `search=on`;
 * locally DynamoDB Local's stream, polled by infra/local/streams.ts). A failed batch throws: the
 * stream hands it again (split in halves on AWS), and indexing a document twice is harmless.
 */
export const handler = async (event: DynamoDBStreamEvent) => {
  await applyChanges(searchPort(), event.Records);
  return { indexed: event.Records.length };
};
