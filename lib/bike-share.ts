import { Duration } from 'aws-cdk-lib';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { cityIds, type CityId } from '../core/cities/index.ts';
import { FEEDS_ENV_VAR, feedSources } from '../platform/bike-share-feeds.ts';
import type { DataStores } from './data-stores.ts';
import { pascalCase } from './naming.ts';
import { SpokeFunction } from './spoke-function.ts';

/** The ingestion's handler module; functions/bikeshare owns it. */
export const BIKESHARE_INGEST_ENTRY = 'functions/bikeshare/ingest-handler.ts';

/**
 * Every minute, EventBridge's shortest rate. Spec 4.7 promises availability refreshed every 30
 * to 60 seconds; feeds whose `ttl` is longer are skipped until they are due.
 */
export const BIKESHARE_SCHEDULE = Schedule.rate(Duration.minutes(1));

/** Under the schedule's minute, so one run ends before the next starts (feed fetches time out at 10 s). */
export const BIKESHARE_INGEST_TIMEOUT = Duration.seconds(50);

/**
 * Context flag (`-c bikeShareReservedConcurrency=true`) that reserves one concurrent execution for
 * each city's ingestion, so its runs never overlap. Off by default: a new account's 10 concurrent
 * executions refuse any reservation (none may take the unreserved pool below 10). Overlapping runs
 * are harmless without it: a run never replaces a snapshot written by a later run
 * (functions/bikeshare/store.ts).
 */
export const BIKESHARE_RESERVED_CONCURRENCY_CONTEXT_KEY = 'bikeShareReservedConcurrency';

/** Context key that points systems at other feeds: `-c bikeShareFeeds='{"citi-bike":"https://..."}'`. */
export const BIKESHARE_FEEDS_CONTEXT_KEY = 'bikeShareFeeds';

export interface BikeShareIngestionProps {
  readonly dataStores: DataStores;
  /** The context value, if any: JSON text or an object of system id -> feed URL. */
  readonly feeds?: unknown;
  /** Reserve one concurrent execution per city (the context flag above). */
  readonly reserveConcurrency?: boolean;
}

/** The feeds setting from the context value, checked as the function will read it; undefined for the defaults. */
export function bikeShareFeedsSetting(contextValue: unknown): string | undefined {
  if (contextValue === undefined) return undefined;
  const text = typeof contextValue === 'string' ? contextValue : JSON.stringify(contextValue);
  try {
    feedSources({ [FEEDS_ENV_VAR]: text });
  } catch (error) {
    throw new Error(`Context ${BIKESHARE_FEEDS_CONTEXT_KEY}: ${(error as Error).message}`);
  }
  return text;
}

/**
 * Bike-share ingestion: one function per city, each on its own one-minute schedule, so a slow or
 * failing feed in one city never delays another. A run ends within the minute (its timeout), so
 * runs overlap only when Lambda starts one late; then the older never overwrites the newer's
 * snapshot (store.ts compares their times), and with `reserveConcurrency` they cannot overlap at
 * all. Runs are not retried: the next one is a minute away, and the last good snapshot stays in
 * service meanwhile.
 */
export class BikeShareIngestion extends Construct {
  readonly ingesters: Readonly<Record<CityId, SpokeFunction>>;
  readonly schedules: Readonly<Record<CityId, Rule>>;

  constructor(scope: Construct, id: string, props: BikeShareIngestionProps) {
    super(scope, id);
    const feeds = bikeShareFeedsSetting(props.feeds);
    const ingesters = {} as Record<CityId, SpokeFunction>;
    const schedules = {} as Record<CityId, Rule>;
    for (const city of cityIds) {
      const ingester = new SpokeFunction(this, `${pascalCase(city)}Ingester`, {
        entry: BIKESHARE_INGEST_ENTRY,
        access: { buckets: { bikeshare: 'readwrite' } },
        dataStores: props.dataStores,
        description: `Bike-share ingestion for ${city}: polls its systems' feeds and writes their snapshots`,
        timeout: BIKESHARE_INGEST_TIMEOUT,
        ...(feeds ? { environment: { [FEEDS_ENV_VAR]: feeds } } : {}),
      });
      if (props.reserveConcurrency) (ingester.function.node.defaultChild as CfnFunction).reservedConcurrentExecutions = 1;
      ingester.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
      ingesters[city] = ingester;
      schedules[city] = new Rule(this, `${pascalCase(city)}Schedule`, {
        description: `Bike-share ingestion for ${city}, every minute`,
        schedule: BIKESHARE_SCHEDULE,
        targets: [new LambdaFunction(ingester.function, { event: RuleTargetInput.fromObject({ city }), retryAttempts: 0 })],
      });
    }
    this.ingesters = ingesters;
    this.schedules = schedules;
  }
}
