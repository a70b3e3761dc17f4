/**
 * The one DynamoDB table: key schema, GSIs and TTL attribute. The CDK stack and the local runtime
 * both build the table from this definition, so the two can never drift.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Overloaded GSIs; what each one serves is listed in docs/data-model.md. */
export const GSI_NAMES = ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5'] as const;
export type GsiName = (typeof GSI_NAMES)[number];

export const gsiKeys = (name: GsiName) => ({ partitionKey: `${name}pk`, sortKey: `${name}sk` });

/**
 * What each index copies besides the keys. gsi1-3 hold whole items (the ticket lists, contacts,
 * every small list of the product). gsi4 and gsi5 copy only what their queries read (ticket search
 * and a contact's tickets read the tickets afterwards by key; the schedules' due index reads the
 * fields of its claim): so a new message, which rewrites the ticket, never rewrites a copy there.
 * A query on gsi4/gsi5 that needs another attribute adds it here (or reads the item by key).
 */
export const GSI_PROJECTIONS: Record<GsiName, readonly string[] | 'ALL'> = {
  gsi1: 'ALL',
  gsi2: 'ALL',
  gsi3: 'ALL',
  gsi4: ['id', 'companyId', 'status', 'sendAt', 'requeues', 'sendingAt'],
  gsi5: ['id', 'companyId', 'status'],
};

export const TTL_ATTRIBUTE = 'ttl';

/** The table's stream: both images, so a consumer sees what changed (the search feed skips acks). */
export const TABLE_STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const };

/** CreateTable input (DynamoDB API shape) used by the local runtime and the table test. */
export function createTableInput(tableName: string) {
  const attributes = [
    TABLE_KEYS.partitionKey,
    TABLE_KEYS.sortKey,
    ...GSI_NAMES.flatMap((g) => Object.values(gsiKeys(g))),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    // the change stream feeds the search index (infra/manifest.ts streamConsumers)
    StreamSpecification: TABLE_STREAM,
    AttributeDefinitions: attributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: GSI_NAMES.map((name) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: gsiKeys(name).partitionKey, KeyType: 'HASH' as const },
        { AttributeName: gsiKeys(name).sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: projectionOf(name),
    })),
  };
}

function projectionOf(name: GsiName) {
  const p = GSI_PROJECTIONS[name];
  return p === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...p] };
}
