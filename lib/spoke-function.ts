import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, CfnRule, Duration, Fn, Stack, type Size } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { ResourceAccess } from '../platform/endpoints.ts';
import { METRICS_NAMESPACE } from '../platform/metric-catalogue.ts';
import { projectRoot } from './project-root.ts';
import { buckets, queues, SIGNING_KEY_TAG, tables, type BucketDefinition, type QueueDefinition } from '../platform/resources.ts';
import type { DataStores } from './data-stores.ts';
import { entriesOf, keysOf } from './naming.ts';

/** Enough for JSON handlers that touch DynamoDB; endpoints that route ask for more in endpoints.ts. */
const DEFAULT_MEMORY_MB = 1024;
const DEFAULT_TIMEOUT_SECONDS = 10;

/** Long enough to investigate an incident reported a few weeks late; short enough to cost little. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;

/** The kinds of `ResourceAccess` this construct turns into grants and environment variables. */
const GRANTED_ACCESS_KINDS: ReadonlySet<string> = new Set(['tables', 'buckets', 'queues', 'signingKeys', 'email']);

/** The `service` field of every Powertools log line, the same in every function. */
const SERVICE_NAME = 'spoke';

/**
 * esbuild emits ESM, which has no `require`. Some dependencies still call it for Node built-ins
 * (esbuild's `__require` shim defers to a global `require` when one exists), so the bundle
 * starts by creating one. The import is aliased so it cannot clash with bundled identifiers.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __spokeCreateRequire } from 'node:module'; const require = __spokeCreateRequire(import.meta.url);";

/**
 * Context flag (`cdk deploy -c installNativeModules=true`) that installs the native modules of
 * the functions that declare them (endpoints.ts `nativeModules`) for the Lambda's platform while
 * bundling. Off by default, so `npm run synth` never reaches for the npm registry; a template
 * synthesised without it carries a rule that stops CloudFormation deploying it (see below).
 */
export const INSTALL_NATIVE_MODULES_CONTEXT = 'installNativeModules';

/** The Lambda platform every function runs on; native modules are installed for it. */
const LAMBDA_PLATFORM = { os: 'linux', cpu: 'arm64', libc: 'glibc' } as const;

export interface SpokeFunctionProps {
  /** Module exporting `handler`, relative to the project root. */
  readonly entry: string;
  /** What the function may touch; it gets exactly these grants and their environment variables. */
  readonly access: ResourceAccess;
  readonly dataStores: DataStores;
  readonly description: string;
  readonly memoryMb?: number;
  readonly timeout?: Duration;
  readonly ephemeralStorage?: Size;
  /** Variables beyond the resource locations every function receives. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Packages with native code, installed beside the bundle for linux-arm64 instead of bundled. */
  readonly nativeModules?: readonly string[];
}

/**
 * One Lambda function the way the platform runs all of them: the handler module bundled locally
 * by esbuild (no Docker) into ESM for Node.js 22 on arm64, its own log group with a retention,
 * and least-privilege access: each table, bucket and queue named in `access` is granted at the
 * named level and announced through the environment variable `resources.ts` gives it. Nothing
 * else is granted, so a handler that reaches for an undeclared resource fails on the missing
 * variable before it could fail on IAM.
 */
export class SpokeFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  /** What it was granted (lib/nag-suppressions.ts names the wildcards CDK's grants write for it). */
  readonly access: ResourceAccess;

  constructor(scope: Construct, id: string, props: SpokeFunctionProps) {
    super(scope, id);
    this.access = props.access;
    this.logGroup = new LogGroup(this, 'Logs', { retention: LOG_RETENTION });
    this.function = new NodejsFunction(this, 'Function', {
      entry: existingEntry(props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(DEFAULT_TIMEOUT_SECONDS),
      ...(props.ephemeralStorage ? { ephemeralStorageSize: props.ephemeralStorage } : {}),
      description: props.description,
      logGroup: this.logGroup,
      // Each request's segments join API Gateway's trace (Powertools' tracer adds the subsegments).
      tracing: Tracing.ACTIVE,
      environment: {
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        NODE_OPTIONS: '--enable-source-maps',
        ...resourceEnvironment(props.access, props.dataStores),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        // Bundle the AWS SDK too rather than use the runtime's copy: the function then runs the
        // exact SDK versions package-lock.json pins and the tests and the local platform use.
        // Native modules stay external: esbuild cannot bundle their binaries.
        externalModules: [...(props.nativeModules ?? [])],
        ...(props.nativeModules?.length && installsNativeModules(this)
          ? { commandHooks: nativeModuleInstall(props.nativeModules) }
          : {}),
      },
    });
    if (props.nativeModules?.length && !installsNativeModules(this)) refuseDeploymentWithoutNativeModules(this, props);
    grantAccess(this.function, props.access, props.dataStores);
    for (const kind of Object.keys(props.access)) {
      if (!GRANTED_ACCESS_KINDS.has(kind)) {
        // Deploying would give a function less than it declares and fail it at run time.
        Annotations.of(this).addError(
          `${props.entry} declares access.${kind}, which lib/spoke-function.ts does not grant yet`,
        );
      }
    }
  }
}

function installsNativeModules(scope: Construct): boolean {
  return String(scope.node.tryGetContext(INSTALL_NATIVE_MODULES_CONTEXT)) === 'true';
}

/** The exact versions package-lock.json pins for the modules (the ones the tests ran against). */
export function lockedVersions(modules: readonly string[]): Record<string, string> {
  const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  return Object.fromEntries(
    modules.map((name) => {
      const version = lock.packages[`node_modules/${name}`]?.version;
      if (!version) throw new Error(`${name} is not in package-lock.json; native modules must be dependencies of the project`);
      return [name, version];
    }),
  );
}

const shellQuote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

/**
 * After esbuild, `npm ci` installs the native modules into the bundle's node_modules from the
 * project's lock file, for linux-arm64 with glibc whatever machine deploys (npm's --os, --cpu and
 * --libc pick the matching prebuilt binary packages, such as @img/sharp-linux-arm64). Install
 * scripts are skipped: they would try to load or build the binary for the deploying machine.
 */
export function nativeModuleInstall(modules: readonly string[]): ICommandHooks {
  const manifest = JSON.stringify({ private: true, dependencies: lockedVersions(modules) });
  const lockFile = join(projectRoot, 'package-lock.json');
  const platform = `--os=${LAMBDA_PLATFORM.os} --cpu=${LAMBDA_PLATFORM.cpu} --libc=${LAMBDA_PLATFORM.libc}`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) => [
      [
        `cd ${shellQuote(outputDir)}`,
        `printf '%s' ${shellQuote(manifest)} > package.json`,
        `cp ${shellQuote(lockFile)} package-lock.json`,
        `npm ci --omit=dev --ignore-scripts --no-audit --no-fund ${platform}`,
        'rm package-lock.json',
      ].join(' && '),
    ],
  };
}

/**
 * Without the native modules the function would deploy and then fail on its first request, so a
 * template synthesised without them carries a CloudFormation rule that always fails: creating or
 * updating the stack stops with this explanation before anything changes.
 */
function refuseDeploymentWithoutNativeModules(fn: SpokeFunction, props: SpokeFunctionProps): void {
  const message = `${props.entry} needs ${props.nativeModules!.join(', ')} built for linux-arm64, which this synthesis did not install: deploy with \`cdk deploy -c ${INSTALL_NATIVE_MODULES_CONTEXT}=true\` from a machine that can reach the npm registry`;
  new CfnRule(fn, 'NativeModulesInstalled', {
    assertions: [{ assert: Fn.conditionEquals('not-installed', 'installed'), assertDescription: message }],
  });
  Annotations.of(fn).addWarning(message);
}

/** NodejsFunction fails on a missing entry too, but without saying which module or why. */
function existingEntry(entry: string): string {
  const path = join(projectRoot, entry);
  if (!existsSync(path)) {
    throw new Error(`Handler module ${entry} does not exist; the stack needs every entry that endpoints.ts and lib/ name`);
  }
  return path;
}

/** The physical name or URL of each resource the function may access, under its resources.ts variable. */
function resourceEnvironment(access: ResourceAccess, stores: DataStores): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of keysOf(access.tables ?? {})) {
    environment[tables[name].envVar] = stores.tables[name].tableName;
  }
  for (const name of keysOf(access.buckets ?? {})) {
    const bucket: BucketDefinition = buckets[name];
    environment[bucket.envVar] = stores.buckets[name].bucketName;
    const publicUrl = stores.publicUrls[name];
    if (bucket.publicUrlEnvVar && publicUrl) environment[bucket.publicUrlEnvVar] = publicUrl;
  }
  for (const name of keysOf(access.queues ?? {})) {
    environment[queues[name].envVar] = stores.queues[name].queue.queueUrl;
  }
  return environment;
}

function grantAccess(fn: NodejsFunction, access: ResourceAccess, stores: DataStores): void {
  const { account, region } = Stack.of(fn);
  if (access.signingKeys === 'sign') {
    // Signing keys are created and rotated at run time (operator CLI), so they are named by tag.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Sign', 'kms:GetPublicKey'],
        resources: [`arn:aws:kms:${region}:${account}:key/*`],
        conditions: { StringEquals: { [`aws:ResourceTag/${SIGNING_KEY_TAG.TagKey}`]: SIGNING_KEY_TAG.TagValue } },
      }),
    );
  }
  if (access.email === 'send') {
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ses:SendEmail'], resources: [`arn:aws:ses:${region}:${account}:identity/*`] }),
    );
  }
  for (const [name, level] of entriesOf(access.tables ?? {})) {
    const table = stores.tables[name];
    if (level === 'read') table.grantReadData(fn);
    else table.grantReadWriteData(fn);
  }
  for (const [name, level] of entriesOf(access.buckets ?? {})) {
    const bucket = stores.buckets[name];
    if (level === 'read') bucket.grantRead(fn);
    else bucket.grantReadWrite(fn);
  }
  for (const [name, level] of entriesOf(access.queues ?? {})) {
    const { queue } = stores.queues[name];
    if (level === 'send') {
      queue.grantSendMessages(fn);
      continue;
    }
    const definition: QueueDefinition = queues[name];
    consumeQueue(fn, {
      queue,
      queueName: definition.name,
      visibilityTimeoutSeconds: definition.visibilityTimeoutSeconds,
      batchSize: definition.batchSize,
      maxBatchingWindowSeconds: definition.maxBatchingWindowSeconds,
    });
  }
}

/**
 * AWS's guidance for a queue that feeds a Lambda function: a visibility timeout of at least six
 * times the function's timeout, plus the batching window. Lambda's poller may retry a throttled
 * invocation with the batch it already received, and a message still being handled must not be
 * handed to another consumer meanwhile.
 */
export const VISIBILITY_TIMEOUTS_PER_FUNCTION_TIMEOUT = 6;

/** The least visibility timeout a queue may have whose consumer may run this long. */
export const minimumVisibilityTimeoutSeconds = (functionTimeoutSeconds: number, maxBatchingWindowSeconds: number): number =>
  VISIBILITY_TIMEOUTS_PER_FUNCTION_TIMEOUT * functionTimeoutSeconds + maxBatchingWindowSeconds;

/** A queue a function consumes, with the settings the consumption depends on. */
export interface QueueConsumption {
  readonly queue: IQueue;
  /** For messages: the queue's name in resources.ts or its construct id. */
  readonly queueName: string;
  /** The queue's own visibility timeout (CDK does not expose it on the construct). */
  readonly visibilityTimeoutSeconds: number;
  readonly batchSize: number;
  readonly maxBatchingWindowSeconds: number;
  /** Most concurrent invocations the event source starts; unset, as many as the queue feeds. */
  readonly maxConcurrency?: number;
}

/**
 * Makes the function the queue's consumer (an SQS event source with partial batch failures, so
 * one failed message is retried alone), refusing a queue whose visibility timeout is below AWS's
 * guidance for the function's timeout: every SQS event source of the stack is added here.
 */
export function consumeQueue(fn: LambdaFunction, consumption: QueueConsumption): void {
  const timeoutSeconds = (fn.timeout ?? Duration.seconds(DEFAULT_TIMEOUT_SECONDS)).toSeconds();
  const least = minimumVisibilityTimeoutSeconds(timeoutSeconds, consumption.maxBatchingWindowSeconds);
  if (consumption.visibilityTimeoutSeconds < least) {
    throw new Error(
      `${fn.node.path} may run ${timeoutSeconds} s, so queue ${consumption.queueName} must hide a message for at least ${least} s ` +
        `(${VISIBILITY_TIMEOUTS_PER_FUNCTION_TIMEOUT} times the timeout plus the ${consumption.maxBatchingWindowSeconds} s batching window), not ${consumption.visibilityTimeoutSeconds} s`,
    );
  }
  // The event source mapping grants receive, delete and change-visibility on the queue.
  fn.addEventSource(
    new SqsEventSource(consumption.queue, {
      batchSize: consumption.batchSize,
      ...(consumption.maxBatchingWindowSeconds > 0 ? { maxBatchingWindow: Duration.seconds(consumption.maxBatchingWindowSeconds) } : {}),
      reportBatchItemFailures: true,
      ...(consumption.maxConcurrency ? { maxConcurrency: consumption.maxConcurrency } : {}),
    }),
  );
}
