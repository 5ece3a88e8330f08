import { Duration, Size, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import type { CityId } from '../core/cities/index.ts';
import { BUILD_QUEUES_ENV_VAR } from '../graph-builder/build-dispatch-handler.ts';
import { parseGraphSourceUrls, type GraphSourceUrls } from '../graph-builder/sources.ts';
import type { ResourceAccess } from '../platform/endpoints.ts';
import type { DataStores } from './data-stores.ts';
import { keysOf, pascalCase } from './naming.ts';
import { consumeQueue, minimumVisibilityTimeoutSeconds, SpokeFunction } from './spoke-function.ts';
import type { StaticInputs } from './static-inputs.ts';

/** The build's handler module (one function per city runs it); the graph builder owns it. */
export const NIGHTLY_BUILD_ENTRY = 'graph-builder/nightly-handler.ts';
/** The module that queues one build per city, on the schedule and after deploys. */
export const BUILD_DISPATCH_ENTRY = 'graph-builder/build-dispatch-handler.ts';

/*
 * Sizing of one city's build, from the measured build of the Lower Manhattan extract tiled 10 x 10
 * (docs/benchmarks.md, "Graph build at city scale"): 248 MB of PBF, 4.06 M ways, peak 1,962 MB
 * resident (reached before the hierarchy stage, which stays below it), 273.5 s of CPU, a 1,005 MB
 * graph (builder 1.9.0, five hierarchies; 908 MB and 266 s with three). Whole-metro extracts of
 * the four cities are that size or smaller, so every city gets the same sizing; a city whose
 * extract grows past it needs its own figures here. Revisit these whenever the measurement changes.
 */

/** Extract size the sizing covers, MB of PBF (the measured 248 MB, rounded up). */
export const SIZED_EXTRACT_MB = 250;
/** Measured peak resident memory of that build, Node included. */
export const MEASURED_BUILD_PEAK_MB = 1962;
/**
 * Memory of each city's build function: the measured peak with half as much again for extracts that
 * grow and for the graph file read back for the upload once the build's arrays are released.
 * Lambda gives CPU in proportion to memory (a full vCPU at 1,769 MB), so this also buys speed.
 */
export const CITY_BUILD_MEMORY_MB = 3008;
/**
 * The measured build took 273.5 s of CPU (on a 2-core machine at load 1; its longest stage the
 * contraction hierarchies, 140 s); downloads may take up to
 * GRAPH_DOWNLOAD_TIMEOUT_SECONDS (10 minutes). 15 minutes is Lambda's maximum; it covers the build
 * and a download of ordinary speed, but not a download that uses its whole limit as well: the
 * limit only keeps a stalled mirror from using all of it.
 */
export const CITY_BUILD_TIMEOUT = Duration.minutes(15);
/** /tmp holds the extract (250 MB), the graph (1,005 MB) and the inputs, with room to spare. */
export const CITY_BUILD_EPHEMERAL_STORAGE = Size.gibibytes(3);

/**
 * A failed build's message comes back after the delay the handler sets (5, then 20 minutes,
 * graph-builder/nightly-handler.ts `retryDelaySeconds`); after three deliveries it waits in the
 * dead-letter queue, which alarms. The visibility timeout follows AWS's guidance for a queue a
 * function consumes (six builds' time, lib/spoke-function.ts): a build that crashes or times out,
 * and so cannot set its retry delay, has its message back after 90 minutes.
 */
export const CITY_BUILD_MAX_RECEIVE_COUNT = 3;
/** Builds are queued one at a time by the dispatcher, so nothing is gained by waiting to batch them. */
const CITY_BUILD_BATCHING_WINDOW_SECONDS = 0;
export const CITY_BUILD_VISIBILITY_TIMEOUT = Duration.seconds(
  minimumVisibilityTimeoutSeconds(CITY_BUILD_TIMEOUT.toSeconds(), CITY_BUILD_BATCHING_WINDOW_SECONDS),
);

/** It publishes graphs, and reads the accepted reports it folds into them (core/report-avoidances.ts). */
export const NIGHTLY_BUILD_ACCESS: ResourceAccess = { buckets: { graphs: 'readwrite' }, tables: { routeAvoidances: 'read' } };

/**
 * 03:00 UTC daily. Routing keeps serving the published graph_version while a build runs, so the
 * hour only needs to follow the daily OpenStreetMap extract refresh; it is easy to move.
 */
export const NIGHTLY_BUILD_SCHEDULE = Schedule.cron({ minute: '0', hour: '3' });

/** Context key that overrides the sources: `cdk deploy -c graphSourceUrls='{"london":"https://..."}'`. */
export const GRAPH_SOURCES_CONTEXT_KEY = 'graphSourceUrls';

/** The log line graph-builder/nightly-handler.ts writes when a city's build fails. */
const BUILD_FAILED_MESSAGE = 'graph rebuild failed';
const METRIC_NAMESPACE = 'Spoke';

/** SQS publishes its queue metrics every five minutes; a shorter period only sees gaps. */
const ALARM_PERIOD = Duration.minutes(5);

/** The sources from the context value (JSON text on the command line, or an object in cdk.json), else the defaults. */
export const graphSourceUrls = (contextValue: unknown): GraphSourceUrls =>
  parseGraphSourceUrls(contextValue, `Context ${GRAPH_SOURCES_CONTEXT_KEY}`);

export interface GraphRebuildProps {
  readonly dataStores: DataStores;
  readonly sourceUrls: GraphSourceUrls;
  /** The uploaded static inputs, or null when the stack was synthesized without them. */
  readonly inputs: StaticInputs | null;
  /** Where the build alarms notify. */
  readonly alarmTopic: ITopic;
}

/** One city's build: its queue, dead-letter queue, function and alarms. */
export interface CityBuild {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly builder: SpokeFunction;
  readonly deadLetterAlarm: Alarm;
  readonly failureAlarm: Alarm;
}

/**
 * Rebuilds each city's routing graph once a day from fresh OpenStreetMap data and publishes it to
 * the graphs bucket, where routing functions pick up the new `graph_version`: an SQS fan-out, one
 * queue and one function per city, so each build has a whole invocation (memory, time, /tmp) to
 * itself and one city's failure neither delays nor fails another. The dispatcher queues one
 * message per city on the schedule, and once after every deploy that changes it or the inputs (a
 * trigger), so a new stack routes within minutes without a manual step.
 */
export class GraphRebuild extends Construct {
  readonly cities: ReadonlyMap<CityId, CityBuild>;
  readonly dispatcher: SpokeFunction;
  readonly schedule: Rule;
  readonly firstBuild: Trigger;

  constructor(scope: Construct, id: string, props: GraphRebuildProps) {
    super(scope, id);
    const cities = new Map<CityId, CityBuild>();
    for (const city of keysOf(props.sourceUrls)) cities.set(city, this.cityBuild(city, props));
    this.cities = cities;

    const queueUrls = Object.fromEntries([...cities].map(([city, build]) => [city, build.queue.queueUrl]));
    this.dispatcher = new SpokeFunction(this, 'Dispatch', {
      entry: BUILD_DISPATCH_ENTRY,
      access: {},
      dataStores: props.dataStores,
      description: 'Queues one graph build per city (daily, and after deploys)',
      timeout: Duration.seconds(30),
      environment: {
        [BUILD_QUEUES_ENV_VAR]: Stack.of(this).toJsonString(queueUrls),
        // A deploy that changes the inputs changes the function, so the trigger below runs again.
        ...(props.inputs ? { STATIC_INPUTS_DIGEST: props.inputs.digest } : {}),
      },
    });
    for (const build of cities.values()) build.queue.grantSendMessages(this.dispatcher.function);
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Daily graph rebuild at 03:00 UTC: one build per city',
      schedule: NIGHTLY_BUILD_SCHEDULE,
      targets: [new LambdaFunction(this.dispatcher.function)],
    });
    this.firstBuild = new Trigger(this, 'BuildAfterDeploy', {
      handler: this.dispatcher.function,
      // The builds need their inputs in the bucket and their consumers attached.
      executeAfter: [...(props.inputs ? [props.inputs.deployment] : []), ...[...cities.values()].map((build) => build.builder)],
      timeout: Duration.minutes(1),
    });
  }

  private cityBuild(city: CityId, props: GraphRebuildProps): CityBuild {
    const id = pascalCase(city);
    const deadLetterQueue = new Queue(this, `${id}BuildDeadLetters`, {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const queue = new Queue(this, `${id}BuildQueue`, {
      visibilityTimeout: CITY_BUILD_VISIBILITY_TIMEOUT,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: CITY_BUILD_MAX_RECEIVE_COUNT },
    });
    const builder = new SpokeFunction(this, `${id}Build`, {
      entry: NIGHTLY_BUILD_ENTRY,
      access: NIGHTLY_BUILD_ACCESS,
      dataStores: props.dataStores,
      description: `Graph build of ${city}: downloads its OSM extracts, compiles and publishes its graph`,
      memoryMb: CITY_BUILD_MEMORY_MB,
      timeout: CITY_BUILD_TIMEOUT,
      ephemeralStorage: CITY_BUILD_EPHEMERAL_STORAGE,
      environment: {
        GRAPH_BUILD_CITY: city,
        GRAPH_SOURCE_URLS: JSON.stringify({ [city]: props.sourceUrls[city] }),
      },
    });
    // At most two builds of a city at once (the least an SQS event source allows): the daily one
    // and one a deploy queued. Each publishes a complete graph, and the later pointer wins.
    consumeQueue(builder.function, {
      queue,
      queueName: `${id}BuildQueue`,
      visibilityTimeoutSeconds: CITY_BUILD_VISIBILITY_TIMEOUT.toSeconds(),
      batchSize: 1,
      maxBatchingWindowSeconds: CITY_BUILD_BATCHING_WINDOW_SECONDS,
      maxConcurrency: 2,
    });

    const deadLetterAlarm = new Alarm(this, `${id}BuildDeadLetterAlarm`, {
      alarmDescription: `The graph build of ${city} failed ${CITY_BUILD_MAX_RECEIVE_COUNT} times; its message waits in the dead-letter queue and routers keep the previous graph`,
      metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    deadLetterAlarm.addAlarmAction(new SnsAction(props.alarmTopic));

    // A failed build reports its message as failed rather than failing the invocation, so Lambda's
    // Errors metric misses it: the handler's log line is the signal.
    const failures = new MetricFilter(this, `${id}BuildFailures`, {
      logGroup: builder.logGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', BUILD_FAILED_MESSAGE),
      metricNamespace: METRIC_NAMESPACE,
      metricName: `GraphBuildFailures-${city}`,
      metricValue: '1',
      defaultValue: 0,
    });
    const failureAlarm = new Alarm(this, `${id}BuildFailureAlarm`, {
      alarmDescription: `A graph build of ${city} failed (it is retried; see the build function's log)`,
      metric: failures.metric({ period: ALARM_PERIOD, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    failureAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
    return { queue, deadLetterQueue, builder, deadLetterAlarm, failureAlarm };
  }
}
