import { sharedDataPath } from './paths.ts';
import { handler as ingestBikeShare } from '../../functions/bikeshare/ingest-handler.ts';
import { STATUS_AGE_ENV_VAR } from '../../functions/bikeshare/ingest.ts';
import { FEEDS_ENV_VAR } from '../../platform/bike-share-feeds.ts';
import { citySystemFixtures, FeedFixtureServer } from './gbfs-fixtures.ts';
import { invoke } from './invocations.ts';
import { lambdaContext } from './queue.ts';

/**
 * Bike share on the local platform: the fixture server serves the recorded feeds, the systems
 * are pointed at it (`BIKESHARE_FEEDS`), and the ingestion handler the schedule runs in AWS runs
 * here once at start and then every minute.
 *
 * The recordings are months or years old, so judged against the wall clock every availability
 * feed would be stale and nothing would ever be shown. Locally the feeds are replayed as they
 * were recorded (`BIKESHARE_MAX_STATUS_LAG_SECONDS=off`): each one counts as fresh relative to
 * its own timestamp, and only a document older than the one already stored is refused.
 */

export const INGESTION_INTERVAL_MS = 60_000;

export interface LocalBikeShare {
  fixturesUrl: string;
  /** Runs the ingestion now (after any run in progress). */
  ingest(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalBikeShare(host: string, log: (line: string) => void): Promise<LocalBikeShare> {
  const fixtures = new FeedFixtureServer(sharedDataPath(), citySystemFixtures);
  const fixturesUrl = await fixtures.start(host);
  const feeds = Object.fromEntries(Object.keys(citySystemFixtures).map((system) => [system, fixtures.entryUrl(system)]));
  Object.assign(process.env, { [FEEDS_ENV_VAR]: JSON.stringify(feeds), [STATUS_AGE_ENV_VAR]: 'off' });

  let running: Promise<void> = Promise.resolve();
  const ingest = () => {
    running = running.then(async () => {
      try {
        const context = lambdaContext('bikeshare-ingest', 60);
        await invoke(context, () => ingestBikeShare({}, context));
      } catch (error) {
        log(`bike-share ingestion failed: ${(error as Error).message}`);
      }
    });
    return running;
  };
  await ingest();
  const timer = setInterval(() => void ingest(), INGESTION_INTERVAL_MS);
  timer.unref();
  return {
    fixturesUrl,
    ingest,
    stop: async () => {
      clearInterval(timer);
      await running;
      await fixtures.stop();
    },
  };
}
