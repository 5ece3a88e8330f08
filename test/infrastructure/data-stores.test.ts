import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  buckets,
  queues,
  tables,
  type BucketName,
  type QueueDefinition,
  type QueueName,
  type TableDefinition,
  type TableName,
} from '../../platform/resources.ts';
import { keysOf } from '../../lib/naming.ts';
import { logicalId, platform, refersTo, resourcesOfType } from './platform-template.ts';

const tableNames = keysOf(tables);
const bucketNames = keysOf(buckets);
const queueNames = keysOf(queues);

describe('DynamoDB tables', () => {
  it('creates exactly the tables of resources.ts', () => {
    platform().template.resourceCountIs('AWS::DynamoDB::Table', tableNames.length);
  });

  it.each(tableNames)('%s: keys, on-demand, point-in-time recovery, TTL as defined, retained', (name: TableName) => {
    const definition: TableDefinition = tables[name];
    const resource = platform().resources[logicalId(platform().stack.dataStores.tables[name])]!;
    expect(resource.DeletionPolicy).toBe('Retain');
    const keySchema = [{ AttributeName: definition.partitionKey.name, KeyType: 'HASH' }];
    if (definition.sortKey) keySchema.push({ AttributeName: definition.sortKey.name, KeyType: 'RANGE' });
    expect(resource.Properties).toMatchObject({
      KeySchema: keySchema,
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    if (definition.ttlAttribute) {
      expect(resource.Properties?.['TimeToLiveSpecification']).toEqual({ AttributeName: definition.ttlAttribute, Enabled: true });
    } else {
      expect(resource.Properties?.['TimeToLiveSpecification']).toBeUndefined();
    }
    const indexNames = (definition.indexes ?? []).map((index) => index.name).sort();
    const created = ((resource.Properties?.['GlobalSecondaryIndexes'] ?? []) as { IndexName: string }[]).map((index) => index.IndexName);
    expect(created.sort()).toEqual(indexNames);
  });
});

describe('S3 buckets', () => {
  it('creates exactly the buckets of resources.ts, and the one their access logs go to', () => {
    platform().template.resourceCountIs('AWS::S3::Bucket', bucketNames.length + 1);
    for (const name of bucketNames) {
      const logging = platform().resources[logicalId(platform().stack.dataStores.buckets[name])]!.Properties!['LoggingConfiguration'];
      expect(refersTo(logging, logicalId(platform().stack.dataStores.accessLogs)), name).toBe(true);
    }
  });

  it.each(bucketNames)('%s: public access blocked, S3-managed encryption, retained', (name: BucketName) => {
    const resource = platform().resources[logicalId(platform().stack.dataStores.buckets[name])]!;
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
  });

  it.each(bucketNames)('%s: refuses requests without TLS', (name: BucketName) => {
    const bucketId = logicalId(platform().stack.dataStores.buckets[name]);
    platform().template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('versions the graphs bucket so a bad nightly build can be rolled back', () => {
    const resource = platform().resources[logicalId(platform().stack.dataStores.buckets.graphs)]!;
    expect(resource.Properties?.['VersioningConfiguration']).toEqual({ Status: 'Enabled' });
  });

  it('expires the versions the graph pruning deletes, and then their delete markers', () => {
    const resource = platform().resources[logicalId(platform().stack.dataStores.buckets.graphs)]!;
    const rules = (resource.Properties?.['LifecycleConfiguration'] as { Rules: Record<string, unknown>[] }).Rules;
    // A deleted key's last version becomes noncurrent, so this rule reaches every pruned graph.
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: 30 } }));
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', ExpiredObjectDeleteMarker: true }));
    // Neither rule is limited to a prefix: graphs live under cities/<city>/graphs/ for every city.
    for (const rule of rules) expect(rule['Prefix'] ?? rule['Filter']).toBeUndefined();
  });
});

describe('SQS queues', () => {
  it('creates each queue of resources.ts with its own dead-letter queue', () => {
    // Besides them, each city's graph build has its queue and dead-letter queue (graph-rebuild.test.ts).
    platform().template.resourceCountIs('AWS::SQS::Queue', queueNames.length * 2 + platform().stack.graphRebuild.cities.size * 2);
  });

  it.each(queueNames)('%s: redrive to its dead-letter queue, SSE, visibility timeout', (name: QueueName) => {
    const definition: QueueDefinition = queues[name];
    const { queue, deadLetterQueue } = platform().stack.dataStores.queues[name];
    const resource = platform().resources[logicalId(queue)]!;
    expect(resource.Properties).toMatchObject({
      VisibilityTimeout: definition.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(deadLetterQueue), 'Arn'] },
        maxReceiveCount: definition.maxReceiveCount,
      },
    });
    expect(platform().resources[logicalId(deadLetterQueue)]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
  });

  it('every queue is reachable only over TLS', () => {
    for (const [, policy] of resourcesOfType('AWS::SQS::QueuePolicy')) {
      expect(JSON.stringify(policy.Properties?.['PolicyDocument'])).toContain('aws:SecureTransport');
    }
    expect(resourcesOfType('AWS::SQS::QueuePolicy').length).toBeGreaterThanOrEqual(queueNames.length * 2);
  });
});
