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

/**
 * A local secondary index: the table's partition key with another sort key, readable with
 * strongly consistent reads. `include` projects only those attributes (beside the keys); without
 * it every attribute is projected.
 */
export interface LocalIndexDefinition {
  readonly name: string;
  readonly sortKey: KeyDefinition;
  readonly include?: readonly string[];
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
  readonly localIndexes?: readonly LocalIndexDefinition[];
  readonly purpose: string;
}

export interface BucketDefinition {
  readonly name: string;
  readonly envVar: string;
  /**
   * Objects are served to the public at `<URL>/<key>` (in AWS through a CDN in front of the
   * still private bucket; locally straight from s3rver), with the base URL in this variable.
   */
  readonly publicUrlEnvVar?: string;
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
    purpose: 'What accepted road reports do to routing, per city (core/report-avoidances.ts): read by routers every few seconds.',
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
  // Rider accounts (spec 2.1, 2.2, 4.6); docs/data-model.md describes keys and access patterns.
  riderNameTrigrams: {
    name: 'rider-name-trigrams',
    envVar: 'TABLE_RIDER_NAME_TRIGRAMS',
    partitionKey: { name: 'trigram', type: 'S' },
    sortKey: { name: 'name_key', type: 'S' },
    purpose: 'User search: one item per trigram of each rider\'s normalised name, written in the same transaction as the profile.',
  },
  imageUploads: {
    name: 'image-uploads',
    envVar: 'TABLE_IMAGE_UPLOADS',
    partitionKey: { name: 'idp_user_id', type: 'S' },
    ttlAttribute: 'expires_at',
    purpose: 'Each rider\'s image uploads in the current 24-hour window, shared by every kind of image upload (spec 8).',
  },
  rides: {
    name: 'rides',
    envVar: 'TABLE_RIDES',
    partitionKey: { name: 'idp_user_id', type: 'S' },
    sortKey: { name: 'ride_id', type: 'N' },
    localIndexes: [
      {
        name: 'by-date-started',
        sortKey: { name: 'started_key', type: 'S' },
        include: ['date_started', 'local_timezone', 'distance_traveled', 'duration_traveled', 'completed', 'city', 'destination_name'],
      },
    ],
    purpose: 'Ride history (spec 2.2) under each rider, newest first through the date-started index, which also feeds the statistics.',
  },
  // Road reports (spec 2.5, 3.1, 4.4); docs/reports.md, docs/data-model.md.
  reports: {
    name: 'reports',
    envVar: 'TABLE_REPORTS',
    partitionKey: { name: 'report_id', type: 'S' },
    indexes: [
      // Sparse: only reports not yet handed to the analysis queue carry `outbox`.
      { name: 'by-outbox', partitionKey: { name: 'outbox', type: 'S' }, sortKey: { name: 'outbox_due_at', type: 'S' } },
      { name: 'by-status', partitionKey: { name: 'status', type: 'S' }, sortKey: { name: 'updated_at', type: 'S' } },
      // Sparse: only reports the analysis located on a road carry `way_key` (`<city>:<way id>`).
      { name: 'by-way', partitionKey: { name: 'way_key', type: 'S' }, sortKey: { name: 'created_at', type: 'S' } },
    ],
    purpose: 'Road reports: what was filed, by whom, its status, the analysis (located road, duplicates, summary) and the outbox marker.',
  },
  reportAudit: {
    name: 'report-audit',
    envVar: 'TABLE_REPORT_AUDIT',
    partitionKey: { name: 'report_id', type: 'S' },
    sortKey: { name: 'entry_id', type: 'S' },
    purpose: 'Every status change of every report: who moved it, from what, to what, when, and the reviewer\'s note.',
  },
  // Idempotency-Key on report and ride submissions (functions/http/idempotent-answers.ts); docs/data-model.md.
  idempotency: {
    name: 'idempotency',
    envVar: 'TABLE_IDEMPOTENCY',
    partitionKey: { name: 'id', type: 'S' },
    ttlAttribute: 'expiration',
    purpose: 'The first answer to each request sent with an Idempotency-Key, for 24 hours: Powertools idempotency records keyed by a hash of endpoint, caller and key.',
  },
  // Custom routes (spec 2.7), read by multi-modal; docs/multimodal.md.
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
    publicUrlEnvVar: 'PHOTOS_PUBLIC_URL',
    purpose: 'Rider profile photos and other uploaded images, under unguessable keys, served through a CDN.',
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
    // At least six times the consumer's timeout (30 s, platform/workers.ts) plus the
    // batching window, as AWS advises for SQS event sources and lib/spoke-function.ts checks;
    // five tries put a poison message in the dead-letter queue within 16 minutes.
    visibilityTimeoutSeconds: 190,
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

/*
 * Resources besides the tables, buckets and queues that the stack and the functions both name:
 * one creates them, the other finds them by that name.
 */

/**
 * Tag on every OAuth signing key the functions create in KMS (functions/oauth/kms-custody.ts),
 * so IAM can grant `kms:Sign` on exactly these keys (lib/spoke-function.ts).
 */
export const SIGNING_KEY_TAG = { TagKey: 'spoke-purpose', TagValue: 'oauth-token-signing' };

/**
 * The identity-provider group whose members are admins (spec 5.6: full profiles in search): the
 * stack creates it in the user pool (lib/rider-identity.ts), the rider token verifier finds it in
 * a token's `cognito:groups`, the operator CLI puts riders in it.
 */
export const RIDER_ADMIN_GROUP = 'admin';
