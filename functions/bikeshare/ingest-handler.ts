import { cityIds, isCityId, type CityId } from '../../core/cities/index.ts';
import { nowSeconds } from '../../platform/clock.ts';
import { withInvocationLogging } from '../../platform/invocation-logging.ts';
import { logger } from '../../platform/logger.ts';
import { freshnessPolicyFromEnvironment, ingestSystem, type IngestOutcome } from './ingest.ts';
import { feedSources } from '../../platform/bike-share-feeds.ts';
import { systemsOf } from './systems.ts';

/**
 * The scheduled bike-share ingestion (lib/bike-share.ts runs it every minute, one function per
 * city whose schedule passes `{"city": "<id>"}`; the local platform calls it at start and on a
 * timer). Feed problems are logged and leave the last good snapshot in place; only a failure to
 * read or write the snapshot store fails the invocation, so it shows in the function's errors.
 *
 * Settings: BUCKET_BIKESHARE; BIKESHARE_FEEDS (platform/bike-share-feeds.ts);
 * BIKESHARE_MAX_STATUS_LAG_SECONDS (functions/bikeshare/ingest.ts).
 */

export interface IngestEvent {
  readonly city?: string;
}

async function ingest(event: IngestEvent = {}): Promise<{ outcomes: IngestOutcome[] }> {
  if (event.city !== undefined && !isCityId(event.city)) throw new Error(`Unknown city ${event.city} (known: ${cityIds.join(', ')})`);
  const cities: readonly CityId[] = event.city ? [event.city as CityId] : cityIds;
  const sources = feedSources();
  const policy = freshnessPolicyFromEnvironment();
  const outcomes: IngestOutcome[] = [];
  const failures: string[] = [];
  for (const city of cities) {
    for (const target of systemsOf(city)) {
      const source = sources.get(target.system.id);
      if (!source) continue;
      try {
        outcomes.push(await ingestSystem(target, source, { now: nowSeconds(), policy }));
      } catch (error) {
        logger.error('bike-share ingestion failed', { system: target.system.id, error: error as Error });
        failures.push(`${target.system.id}: ${(error as Error).message}`);
      }
    }
  }
  if (failures.length) throw new Error(`Bike-share ingestion failed for ${failures.join('; ')}`);
  return { outcomes };
}

export const handler = withInvocationLogging(ingest);
