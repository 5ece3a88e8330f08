import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Duration, Size, Stage } from 'aws-cdk-lib';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { InvocationType, Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { projectRoot } from './project-root.ts';
import { graphRecipes } from '../graph-builder/city-recipes.ts';
import { INPUTS_PREFIX, PARKING_INPUT_FILES } from '../platform/inputs.ts';
import type { DataStores } from './data-stores.ts';
import { SpokeFunction } from './spoke-function.ts';

/**
 * Context value naming the shared data folder the stack uploads the static inputs from:
 * `cdk deploy -c spokeDataPath=/path/to/data`. Relative paths resolve against the project root;
 * the default is `../shared/data`, where the code reads it locally too (lib/local/paths.ts).
 */
export const DATA_PATH_CONTEXT_KEY = 'spokeDataPath';
export const DEFAULT_DATA_PATH = '../shared/data';

/**
 * Context flag that synthesizes the stack without the upload (`-c skipStaticInputs=true`), for a
 * machine without the data folder. Only on request: a deployment without the inputs builds no
 * graph with elevation or London's boroughs, and publishes no parking.
 */
export const SKIP_STATIC_INPUTS_CONTEXT_KEY = 'skipStaticInputs';

/** The parking publisher's handler module; functions/multimodal owns it. */
export const PARKING_PUBLISH_ENTRY = 'functions/multimodal/parking/publish-handler.ts';

/** Compiling the largest source (London's 14 MB of GeoJSON) takes seconds; this leaves room for S3. */
const PARKING_PUBLISH_TIMEOUT = Duration.seconds(90);

/** Lambda's error metrics arrive per minute; five covers the run and Lambda's two retries of it. */
const PARKING_PUBLISH_ALARM_PERIOD = Duration.minutes(5);

/**
 * Every file of the shared data folder a deployed job reads: the graph build's elevation models
 * and area boundaries (graph-builder/city-recipes.ts) and the parking sources
 * (PARKING_INPUT_FILES in platform/inputs.ts). Not the OSM extracts: the build downloads those
 * (GRAPH_SOURCE_URLS). The bike-share system list is code (platform/bike-share-feeds.ts), not a file.
 */
export function staticInputFiles(): string[] {
  const files = new Set<string>();
  for (const recipe of Object.values(graphRecipes)) {
    for (const model of recipe.elevation ?? []) files.add(model.file);
    if (recipe.areas) files.add(recipe.areas.file);
  }
  for (const file of Object.values(PARKING_INPUT_FILES)) files.add(file);
  return [...files].sort();
}

/** The data folder the context names, resolved against the project root. */
export function staticInputsDataPath(contextValue: unknown): string {
  if (contextValue !== undefined && typeof contextValue !== 'string') throw new Error(`Context ${DATA_PATH_CONTEXT_KEY} must be a path`);
  return resolve(projectRoot, contextValue || DEFAULT_DATA_PATH);
}

export interface StaticInputsProps {
  readonly dataStores: DataStores;
  /** The shared data folder (staticInputsDataPath). */
  readonly dataPath: string;
  /** Where a failed parking publish is announced; without it the alarm only changes state. */
  readonly alarmTopic?: ITopic;
}

/**
 * The static inputs in the graphs bucket under `inputs/` (platform/inputs.ts): the
 * files `staticInputFiles` names are copied at synth into one staging folder, which a
 * BucketDeployment uploads on deploy (removing inputs no longer listed). Then a trigger starts the
 * parking publisher, which compiles the parking datasets from the uploaded sources. The trigger
 * does not wait for it: a source with bad data must not fail the deploy and roll back the whole
 * stack (leaving its retained tables and buckets behind) when multi-modal can keep serving the
 * datasets already published. A failed run is an alarm instead (`parkingPublishFailureAlarm`,
 * on the function's `Errors`, `parkingPublishFailures`). `digest`
 * changes whenever an input's content does; functions that must run again after such a deploy
 * carry it in their environment, which makes the triggers that run them fire again.
 */
export class StaticInputs extends Construct {
  readonly deployment: BucketDeployment;
  readonly digest: string;
  readonly files: readonly string[];
  readonly parkingPublisher: SpokeFunction;
  readonly parkingTrigger: Trigger;
  /** Failed runs of the parking publisher (each of Lambda's tries of an asynchronous invocation counts). */
  readonly parkingPublishFailures: IMetric;
  readonly parkingPublishFailureAlarm: Alarm;

  constructor(scope: Construct, id: string, props: StaticInputsProps) {
    super(scope, id);
    this.files = staticInputFiles();
    const missing = this.files.filter((file) => !existsSync(join(props.dataPath, file)));
    if (missing.length > 0) {
      throw new Error(
        `The static inputs are not all in ${props.dataPath} (missing: ${missing.join(', ')}). Point the context value ${DATA_PATH_CONTEXT_KEY} at the shared data folder (-c ${DATA_PATH_CONTEXT_KEY}=/path/to/data), or synthesize without the upload (-c ${SKIP_STATIC_INPUTS_CONTEXT_KEY}=true; see docs/operations.md).`,
      );
    }
    const staged = this.stage(props.dataPath);
    this.digest = staged.digest;
    this.deployment = new BucketDeployment(this, 'Upload', {
      sources: [Source.asset(staged.folder)],
      destinationBucket: props.dataStores.buckets.graphs,
      destinationKeyPrefix: INPUTS_PREFIX,
      // The AWS CLI inside copies a 14 MB GeoJSON; the default 128 MB makes it crawl.
      memoryLimit: 512,
      ephemeralStorageSize: Size.mebibytes(1024),
      prune: true,
    });
    this.parkingPublisher = new SpokeFunction(this, 'ParkingPublish', {
      entry: PARKING_PUBLISH_ENTRY,
      access: { buckets: { graphs: 'readwrite' } },
      dataStores: props.dataStores,
      description: 'Compiles the uploaded cycle-parking sources into the parking datasets multi-modal searches read',
      memoryMb: 1024,
      timeout: PARKING_PUBLISH_TIMEOUT,
      environment: { STATIC_INPUTS_DIGEST: this.digest },
    });
    this.parkingTrigger = new Trigger(this, 'PublishParkingAfterDeploy', {
      handler: this.parkingPublisher.function,
      executeAfter: [this.deployment],
      // Started, not awaited: its failure raises the alarm below instead of rolling back the deploy.
      invocationType: InvocationType.EVENT,
    });
    this.parkingPublishFailures = this.parkingPublisher.function.metricErrors({ period: PARKING_PUBLISH_ALARM_PERIOD, statistic: 'Sum' });
    this.parkingPublishFailureAlarm = new Alarm(this, 'ParkingPublishFailureAlarm', {
      alarmDescription:
        'The parking publisher failed after a deploy (functions/multimodal/parking/publish-handler.ts; see its log): multi-modal keeps the datasets published before',
      metric: this.parkingPublishFailures,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.alarmTopic) this.parkingPublishFailureAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
  }

  /** Copies the inputs into a folder of the cloud assembly; their digest names their content. */
  private stage(dataPath: string): { folder: string; digest: string } {
    const folder = join(Stage.of(this)!.outdir, 'static-inputs');
    rmSync(folder, { recursive: true, force: true });
    const hash = createHash('sha256');
    for (const file of this.files) {
      const target = join(folder, file);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(dataPath, file), target);
      hash.update(file).update('\0').update(readFileSync(target));
    }
    return { folder, digest: hash.digest('hex').slice(0, 16) };
  }
}
