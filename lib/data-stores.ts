import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { AllowedMethods, Distribution, HttpVersion, PriceClass, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  buckets,
  queues,
  tables,
  type BucketDefinition,
  type BucketName,
  type KeyDefinition,
  type QueueDefinition,
  type QueueName,
  type TableDefinition,
  type TableName,
} from '../platform/resources.ts';
import { keysOf, mapKeys, pascalCase } from './naming.ts';

/**
 * Buckets whose objects are worth a way back. A graph is replaced every night; with versioning a
 * bad build can be rolled back by restoring the previous version of the city's objects.
 */
const VERSIONED_BUCKETS: ReadonlySet<BucketName> = new Set<BucketName>(['graphs']);

/**
 * How long replaced and deleted versions stay restorable before S3 expires them: overwritten
 * pointers and inputs, and the graph versions the nightly build prunes beyond the newest few
 * (graph-builder/publish.ts GRAPH_VERSIONS_KEPT), each of which is deleted and so noncurrent.
 */
const NONCURRENT_VERSION_RETENTION = Duration.days(30);

/** How long S3 server access logs and CloudFront logs are kept: a quarter covers late-found incidents. */
const ACCESS_LOG_RETENTION = Duration.days(90);

/** The longest SQS allows, so a failed message can be inspected and redriven at leisure. */
const DEAD_LETTER_RETENTION = Duration.days(14);

export interface QueueWithDeadLetter {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
}

/**
 * Every table, bucket and queue of `platform/resources.ts`, created in AWS. The local
 * platform creates the same set from the same definitions; nothing here restates a name or key.
 * Physical names are left to CloudFormation (functions receive them through environment
 * variables), so a replacement never collides with a retained predecessor.
 */
export class DataStores extends Construct {
  readonly tables: Readonly<Record<TableName, Table>>;
  readonly buckets: Readonly<Record<BucketName, Bucket>>;
  readonly queues: Readonly<Record<QueueName, QueueWithDeadLetter>>;
  /** CDN distributions of the buckets whose objects the public reads (`publicUrlEnvVar`). */
  readonly distributions: Readonly<Partial<Record<BucketName, Distribution>>>;
  /** Their base URLs, which functions receive in the bucket's `publicUrlEnvVar`. */
  readonly publicUrls: Readonly<Partial<Record<BucketName, string>>>;
  /** Where every bucket writes its server access logs and every distribution its logs. */
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.accessLogs = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront's standard logs are written with an ACL, which enforced ownership refuses.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'ExpireLogs', expiration: ACCESS_LOG_RETENTION }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.tables = mapKeys(keysOf(tables), (name) => this.createTable(name));
    this.buckets = mapKeys(keysOf(buckets), (name) => this.createBucket(name));
    this.queues = mapKeys(keysOf(queues), (name) => this.createQueue(name));
    const served = keysOf(buckets).filter((name) => (buckets[name] as BucketDefinition).publicUrlEnvVar);
    this.distributions = Object.fromEntries(served.map((name) => [name, this.createDistribution(name)]));
    this.publicUrls = Object.fromEntries(
      served.map((name) => [name, `https://${this.distributions[name]!.distributionDomainName}`]),
    );
  }

  /**
   * A CloudFront distribution in front of a bucket the public reads: the bucket stays private
   * (all public access blocked) and lets only this distribution read it (origin access control),
   * over HTTPS, GET and HEAD only, cached (object keys never change content).
   */
  private createDistribution(name: BucketName): Distribution {
    return new Distribution(this, `${pascalCase(name)}Distribution`, {
      comment: `Spoke ${buckets[name].name}: ${buckets[name].purpose}`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.buckets[name]),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: `cloudfront/${buckets[name].name}/`,
    });
  }

  private createTable(name: TableName): Table {
    // Widened to the interface so the optional fields can be read on every entry.
    const definition: TableDefinition = tables[name];
    const table = new Table(this, `${pascalCase(name)}Table`, {
      partitionKey: attribute(definition.partitionKey),
      ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      ...(definition.ttlAttribute ? { timeToLiveAttribute: definition.ttlAttribute } : {}),
      // Customer keys, rate counters and rider data outlive any one stack: deleting the stack
      // must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of definition.indexes ?? []) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attribute(index.partitionKey),
        ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
      });
    }
    for (const index of definition.localIndexes ?? []) {
      table.addLocalSecondaryIndex({
        indexName: index.name,
        sortKey: attribute(index.sortKey),
        ...(index.include ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] } : {}),
      });
    }
    return table;
  }

  private createBucket(name: BucketName): Bucket {
    const versioned = VERSIONED_BUCKETS.has(name);
    return new Bucket(this, `${pascalCase(name)}Bucket`, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: `s3/${buckets[name].name}/`,
      versioned,
      ...(versioned
        ? {
            lifecycleRules: [
              { id: 'ExpireReplacedVersions', noncurrentVersionExpiration: NONCURRENT_VERSION_RETENTION },
              // A pruned graph leaves a delete marker; once its last version has expired, the marker goes too.
              { id: 'RemoveExpiredDeleteMarkers', expiredObjectDeleteMarker: true },
            ],
          }
        : {}),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private createQueue(name: QueueName): QueueWithDeadLetter {
    const definition: QueueDefinition = queues[name];
    const id = pascalCase(name);
    const deadLetterQueue = new Queue(this, `${id}DeadLetterQueue`, {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DEAD_LETTER_RETENTION,
    });
    const queue = new Queue(this, `${id}Queue`, {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
    return { queue, deadLetterQueue };
  }
}

function attribute(key: KeyDefinition): { name: string; type: AttributeType } {
  return { name: key.name, type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER };
}
