/**
 * The platform's stateful resources, defined once. The CDK stack creates them in AWS and the
 * local platform creates the same tables, buckets and queues on dynalite, s3rver and the
 * in-process queue. Functions find the physical names through the environment variables named
 * here, so the same code runs in both places.
 */

export type KeyType = 'S' | 'N';

export interface KeyDefinition {
  readonly name: string;
  readonly type: KeyType;
}

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
}

export interface TableDefinition {
  /** Logical name; the local physical name is `<prefix>-<name>`. */
  readonly name: string;
  readonly envVar: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  /** Attribute holding a Unix-seconds expiry that DynamoDB TTL deletes after. */
  readonly ttlAttribute?: string;
  readonly indexes?: readonly IndexDefinition[];
  readonly purpose: string;
}

export interface BucketDefinition {
  readonly name: string;
  readonly envVar: string;
  readonly purpose: string;
}

export interface QueueDefinition {
  readonly name: string;
  /** Environment variable holding the queue URL. */
  readonly envVar: string;
  readonly visibilityTimeoutSeconds: number;
  /** Deliveries before a message moves to the dead-letter queue. */
  readonly maxReceiveCount: number;
  readonly batchSize: number;
  readonly maxBatchingWindowSeconds: number;
  readonly purpose: string;
}

export const tables = {
  apiKeys: {
    name: 'api-keys',
    envVar: 'TABLE_API_KEYS',
    partitionKey: { name: 'key_id', type: 'S' },
    purpose: 'API keys: only a SHA-256 hash of each key, its plan, partner source slug, limits and status.',
  },
  rateLimits: {
    name: 'rate-limits',
    envVar: 'TABLE_RATE_LIMITS',
    partitionKey: { name: 'bucket_id', type: 'S' },
    ttlAttribute: 'expires_at',
    purpose: 'One item per rate-limit bucket holding its minute, hour and day windows, updated optimistically.',
  },
} as const satisfies Record<string, TableDefinition>;

export const buckets = {
  graphs: {
    name: 'graphs',
    envVar: 'BUCKET_GRAPHS',
    purpose: 'Compiled per-city routing graphs and the pointer to each city\'s current graph_version.',
  },
  photos: {
    name: 'photos',
    envVar: 'BUCKET_PHOTOS',
    purpose: 'Rider profile photos and other uploaded images.',
  },
} as const satisfies Record<string, BucketDefinition>;

export const queues = {
  reportAnalysis: {
    name: 'report-analysis',
    envVar: 'QUEUE_REPORT_ANALYSIS_URL',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    maxBatchingWindowSeconds: 2,
    purpose: 'Reports waiting for automated analysis; failures retry, then land in the dead-letter queue.',
  },
} as const satisfies Record<string, QueueDefinition>;

export type TableName = keyof typeof tables;
export type BucketName = keyof typeof buckets;
export type QueueName = keyof typeof queues;

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export const tableName = (table: TableName): string => requiredEnv(tables[table].envVar);
export const bucketName = (bucket: BucketName): string => requiredEnv(buckets[bucket].envVar);
export const queueUrl = (queue: QueueName): string => requiredEnv(queues[queue].envVar);
