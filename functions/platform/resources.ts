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
  riders: {
    name: 'riders',
    envVar: 'TABLE_RIDERS',
    partitionKey: { name: 'idp_user_id', type: 'S' },
    indexes: [{ name: 'by-email', partitionKey: { name: 'email', type: 'S' } }],
    purpose: 'Rider profiles (spec 2.1), keyed by the identity-provider user id; found by email for email sign-in.',
  },
  oauthClients: {
    name: 'oauth-clients',
    envVar: 'TABLE_OAUTH_CLIENTS',
    partitionKey: { name: 'client_id', type: 'S' },
    purpose: 'Registered third-party apps: name, exact redirect URIs, public or confidential, a hash of the secret, status.',
  },
  oauthRequests: {
    name: 'oauth-requests',
    envVar: 'TABLE_OAUTH_REQUESTS',
    partitionKey: { name: 'request_id', type: 'S' },
    ttlAttribute: 'delete_after',
    purpose: 'Open authorization requests behind the consent screen (3 minutes), with the rider who signed in.',
  },
  oauthCodes: {
    name: 'oauth-codes',
    envVar: 'TABLE_OAUTH_CODES',
    partitionKey: { name: 'code_hash', type: 'S' },
    ttlAttribute: 'delete_after',
    purpose: 'Authorization codes by SHA-256 hash: single use, 10 minutes, bound to client, redirect URI and PKCE challenge.',
  },
  oauthGrants: {
    name: 'oauth-grants',
    envVar: 'TABLE_OAUTH_GRANTS',
    partitionKey: { name: 'grant_id', type: 'S' },
    ttlAttribute: 'delete_after',
    indexes: [{ name: 'by-client', partitionKey: { name: 'client_id', type: 'S' } }],
    purpose: 'One grant per approved code: the refresh-token family and its revocation state, read by the authorizer.',
  },
  oauthRefreshTokens: {
    name: 'oauth-refresh-tokens',
    envVar: 'TABLE_OAUTH_REFRESH_TOKENS',
    partitionKey: { name: 'token_id', type: 'S' },
    ttlAttribute: 'delete_after',
    purpose: 'Refresh tokens by id with a hash of the secret; rotated on use, a rotated one revokes its family when reused.',
  },
  oauthSigningKeys: {
    name: 'oauth-signing-keys',
    envVar: 'TABLE_OAUTH_SIGNING_KEYS',
    partitionKey: { name: 'kid', type: 'S' },
    purpose: 'ES256 signing keys (current, previous, retired): public JWKs and, in AWS, the KMS key that holds each private key.',
  },
  emailSignInCodes: {
    name: 'email-sign-in-codes',
    envVar: 'TABLE_EMAIL_SIGN_IN_CODES',
    partitionKey: { name: 'challenge_id', type: 'S' },
    ttlAttribute: 'delete_after',
    purpose: 'Email one-time sign-in codes by challenge: a hash of the code, the rider it signs in, attempts left.',
  },
  routeAvoidances: {
    name: 'route-avoidances',
    envVar: 'TABLE_ROUTE_AVOIDANCES',
    partitionKey: { name: 'city', type: 'S' },
    sortKey: { name: 'report_id', type: 'S' },
    ttlAttribute: 'expires_at',
    purpose: 'What accepted road reports do to routing, per city (functions/routing/avoidances.ts): read by routers every few seconds.',
  },
  events: {
    name: 'events',
    envVar: 'TABLE_EVENTS',
    partitionKey: { name: 'event_id', type: 'S' },
    indexes: [
      { name: 'by-city', partitionKey: { name: 'city', type: 'S' } },
      { name: 'by-alias', partitionKey: { name: 'alias', type: 'S' } },
    ],
    purpose: 'Group rides and permanent leisure routes (spec 2.3) by integer id as a string; a city\'s events by city, an event by alias.',
  },
  destinations: {
    name: 'destinations',
    envVar: 'TABLE_DESTINATIONS',
    partitionKey: { name: 'destination_id', type: 'S' },
    purpose: 'Event destinations (spec 2.4): name, coordinates, area, computed city, category ids.',
  },
  categories: {
    name: 'categories',
    envVar: 'TABLE_CATEGORIES',
    partitionKey: { name: 'category_id', type: 'S' },
    purpose: 'Event and destination categories (spec 2.4): name (unique, any case) and emoji.',
  },
  idSequences: {
    name: 'id-sequences',
    envVar: 'TABLE_ID_SEQUENCES',
    partitionKey: { name: 'sequence', type: 'S' },
    purpose: 'One counter per kind of integer id (events, destinations, categories): the last id issued.',
  },
  customRoutes: {
    name: 'custom-routes',
    envVar: 'TABLE_CUSTOM_ROUTES',
    partitionKey: { name: 'route_id', type: 'S' },
    purpose: 'Saved custom routes (spec 2.7) by UUID: named start, stops and end, and the legs as planned when saved; read by multi-modal requests (`event_id`).',
  },
} as const satisfies Record<string, TableDefinition>;

export const buckets = {
  graphs: {
    name: 'graphs',
    envVar: 'BUCKET_GRAPHS',
    purpose: 'Compiled per-city routing graphs and the pointer to each city\'s current graph_version; the parking datasets multi-modal searches (`parking/`).',
  },
  photos: {
    name: 'photos',
    envVar: 'BUCKET_PHOTOS',
    purpose: 'Rider profile photos and other uploaded images.',
  },
  bikeshare: {
    name: 'bikeshare',
    envVar: 'BUCKET_BIKESHARE',
    purpose: 'One gzipped snapshot per bike-share system (stations, dockless vehicles, geofencing, pricing), rewritten by the ingestion every minute.',
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
