import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  type AttributeDefinition,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { USAGE_KEY_SECRETS_FILE_ENV_VAR } from '../../platform/deployment-settings.ts';
import {
  buckets,
  tables,
  type BucketDefinition,
  type KeyDefinition,
  type TableDefinition,
} from '../../platform/resources.ts';

/**
 * Creates the tables and buckets of platform/resources.ts on dynalite and s3rver, as
 * the CDK stack does in AWS. Existing ones are kept, so a restart keeps its data. dynalite does
 * not run TTL deletion; nothing the platform does depends on expired items being gone.
 */

/** s3rver accepts only its own fixed credentials; dynalite accepts any, so both use these. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export const localTableName = (table: TableDefinition): string => `spoke-${table.name}`;
export const localBucketName = (bucket: BucketDefinition): string => `spoke-${bucket.name}`;

function keySchema(partitionKey: KeyDefinition, sortKey?: KeyDefinition): KeySchemaElement[] {
  return [
    { AttributeName: partitionKey.name, KeyType: 'HASH' },
    ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' as const }] : []),
  ];
}

function attributeDefinitions(table: TableDefinition): AttributeDefinition[] {
  const keys = [
    table.partitionKey,
    table.sortKey,
    ...(table.indexes ?? []).flatMap((index) => [index.partitionKey, index.sortKey]),
    ...(table.localIndexes ?? []).map((index) => index.sortKey),
  ];
  const byName = new Map<string, AttributeDefinition>();
  for (const key of keys) if (key) byName.set(key.name, { AttributeName: key.name, AttributeType: key.type });
  return [...byName.values()];
}

async function ensureTable(client: DynamoDBClient, table: TableDefinition, name = localTableName(table)): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const indexes = table.indexes ?? [];
  const localIndexes = table.localIndexes ?? [];
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: keySchema(table.partitionKey, table.sortKey),
      AttributeDefinitions: attributeDefinitions(table),
      ...(indexes.length
        ? {
            GlobalSecondaryIndexes: indexes.map((index) => ({
              IndexName: index.name,
              KeySchema: keySchema(index.partitionKey, index.sortKey),
              Projection: { ProjectionType: 'ALL' },
            })),
          }
        : {}),
      ...(localIndexes.length
        ? {
            LocalSecondaryIndexes: localIndexes.map((index) => ({
              IndexName: index.name,
              KeySchema: keySchema(table.partitionKey, index.sortKey),
              Projection: index.include
                ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.include] }
                : { ProjectionType: 'ALL' as const },
            })),
          }
        : {}),
    }),
  );
  await untilTableActive(client, name);
}

/**
 * Waits for a table just created to be ACTIVE, as DynamoDB's callers must: dynalite makes it so a
 * moment after creating it, and the platform's own thread, which reaches dynalite without a socket
 * (dynamo-in-process.ts), could otherwise write to it before.
 */
export async function untilTableActive(client: DynamoDBClient, name: string): Promise<void> {
  while ((await client.send(new DescribeTableCommand({ TableName: name }))).Table?.TableStatus !== 'ACTIVE') await sleep(5);
}

async function ensureBucket(client: S3Client, bucket: BucketDefinition): Promise<void> {
  const name = localBucketName(bucket);
  try {
    await client.send(new HeadBucketCommand({ Bucket: name }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  }
}

export async function provisionResources(endpoints: { dynamodb: string; s3: string }): Promise<void> {
  const credentials = LOCAL_CREDENTIALS;
  const dynamo = new DynamoDBClient({ endpoint: endpoints.dynamodb, region: 'us-east-1', credentials });
  const s3 = new S3Client({ endpoint: endpoints.s3, region: 'us-east-1', credentials, forcePathStyle: true });
  try {
    for (const table of Object.values(tables)) await ensureTable(dynamo, table);
    for (const bucket of Object.values(buckets)) await ensureBucket(s3, bucket);
  } finally {
    dynamo.destroy();
    s3.destroy();
  }
}

/**
 * One table of resources.ts created under another name, for a test whose operation covers a whole
 * table (a usage-key secret rotation re-registers every key in it), so it neither moves other
 * tests' items nor meets theirs.
 */
export async function provisionTableCopy(dynamodbEndpoint: string, table: TableDefinition, name: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint: dynamodbEndpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    await ensureTable(client, table, name);
  } finally {
    client.destroy();
  }
}

/** The environment the deployed functions get from the stack, with local names and endpoints. */
/**
 * Where the local platform keeps the versions of its usage-key secret (functions/auth/usage-key-secrets.ts):
 * a file of its state folder, read by its authorizer and rotated by `npm run admin -- usage-keys rotate-secret`.
 */
export function localUsageKeySecretsEnvironment(stateDir: string): Record<string, string> {
  return { [USAGE_KEY_SECRETS_FILE_ENV_VAR]: join(stateDir, 'usage-key-secrets.json') };
}

export function functionEnvironment(endpoints: { dynamodb: string; s3: string; sqs: string }): Record<string, string> {
  const environment: Record<string, string> = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_SERVICE_NAME: 'spoke-local',
    // Signing keys in the local state, sign-in codes to the log: no KMS or SES on this machine.
    OAUTH_KEY_CUSTODY: 'local',
    SPOKE_MAIL: 'log',
    // Rides get deterministic, clearly labelled weather instead of calling a weather service.
    WEATHER_PROVIDER: 'offline',
  };
  for (const table of Object.values(tables)) environment[table.envVar] = localTableName(table);
  for (const definition of Object.values(buckets)) {
    const bucket: BucketDefinition = definition;
    environment[bucket.envVar] = localBucketName(bucket);
    // s3rver serves objects by path to anyone, which stands in for the CDN in front of the bucket.
    if (bucket.publicUrlEnvVar) environment[bucket.publicUrlEnvVar] = `${endpoints.s3}/${localBucketName(bucket)}`;
  }
  return environment;
}
