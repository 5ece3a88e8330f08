import { Duration, Size } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { parseGraphSourceUrls, type GraphSourceUrls } from '../graph-builder/sources.ts';
import type { ResourceAccess } from '../functions/platform/endpoints.ts';
import type { DataStores } from './data-stores.ts';
import { SpokeFunction } from './spoke-function.ts';

/** The job's handler module; the graph builder owns it. */
export const NIGHTLY_BUILD_ENTRY = 'graph-builder/nightly-handler.ts';

/*
 * Sizing of the nightly build. The values come from the measured build (seconds and peak memory
 * per city, recorded in docs/benchmarks.md): revisit them whenever those measurements change.
 * Lambda grants CPU in proportion to memory, so memory also buys build speed; 15 minutes is the
 * Lambda maximum, and 4 GiB of /tmp holds the downloaded extracts next to the compiled graphs.
 */
export const NIGHTLY_BUILD_MEMORY_MB = 3008;

/** It publishes graphs, and reads the accepted reports it folds into them (core/avoidances.ts). */
export const NIGHTLY_BUILD_ACCESS: ResourceAccess = { buckets: { graphs: 'readwrite' }, tables: { routeAvoidances: 'read' } };
export const NIGHTLY_BUILD_TIMEOUT = Duration.minutes(15);
export const NIGHTLY_BUILD_EPHEMERAL_STORAGE = Size.gibibytes(4);

/**
 * 03:00 UTC daily. Routing keeps serving the published graph_version while a build runs, so the
 * hour only needs to follow the daily OpenStreetMap extract refresh; it is easy to move.
 */
export const NIGHTLY_BUILD_SCHEDULE = Schedule.cron({ minute: '0', hour: '3' });

/** Context key that overrides the sources: `cdk deploy -c graphSourceUrls='{"london":"https://..."}'`. */
export const GRAPH_SOURCES_CONTEXT_KEY = 'graphSourceUrls';

/** The sources from the context value (JSON text on the command line, or an object in cdk.json), else the defaults. */
export const graphSourceUrls = (contextValue: unknown): GraphSourceUrls =>
  parseGraphSourceUrls(contextValue, `Context ${GRAPH_SOURCES_CONTEXT_KEY}`);

export interface GraphRebuildProps {
  readonly dataStores: DataStores;
  readonly sourceUrls: GraphSourceUrls;
}

/**
 * Rebuilds every city's routing graph once a day from fresh OpenStreetMap data and publishes it
 * to the graphs bucket, where routing functions pick up the new `graph_version`.
 */
export class GraphRebuild extends Construct {
  readonly builder: SpokeFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: GraphRebuildProps) {
    super(scope, id);
    this.builder = new SpokeFunction(this, 'NightlyBuild', {
      entry: NIGHTLY_BUILD_ENTRY,
      access: NIGHTLY_BUILD_ACCESS,
      dataStores: props.dataStores,
      description: 'Nightly graph rebuild: downloads OSM extracts, compiles and publishes city graphs',
      memoryMb: NIGHTLY_BUILD_MEMORY_MB,
      timeout: NIGHTLY_BUILD_TIMEOUT,
      ephemeralStorage: NIGHTLY_BUILD_EPHEMERAL_STORAGE,
      environment: { GRAPH_SOURCE_URLS: JSON.stringify(props.sourceUrls) },
    });
    // One retry covers a transient download failure; more would only repeat a deterministic one.
    // The previous graphs stay in service until a build succeeds.
    this.builder.function.configureAsyncInvoke({ retryAttempts: 1 });
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Daily graph rebuild at 03:00 UTC',
      schedule: NIGHTLY_BUILD_SCHEDULE,
      targets: [new LambdaFunction(this.builder.function)],
    });
  }
}
