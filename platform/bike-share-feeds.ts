/**
 * Where each city's bike-share system (core/cities/cities.ts `bikeShare`) publishes its live
 * feed, and which adapter reads it. A deployment can point systems elsewhere with
 * `BIKESHARE_FEEDS` (JSON: system id -> URL); when it is set, only the systems it names are
 * polled, which is how the local platform points them at its fixture server and never at the
 * internet. The stack checks the setting with the same parser the ingestion reads it with
 * (lib/bike-share.ts), so a deployment with a bad one fails at synth.
 */

export type FeedAdapter = 'gbfs' | 'tfl-bikepoint';

export interface FeedSource {
  readonly adapter: FeedAdapter;
  /** GBFS: `gbfs.json` (1.x-3.x) or a 3.x `manifest.json`; TfL: the BikePoint collection. */
  readonly url: string;
  /** The GBFS `system_id` to pick from a 3.x manifest that lists several systems. */
  readonly gbfsSystemId?: string;
}

export const defaultFeedSources: Readonly<Record<string, FeedSource>> = {
  'santander-cycles': { adapter: 'tfl-bikepoint', url: 'https://api.tfl.gov.uk/BikePoint' },
  'citi-bike': { adapter: 'gbfs', url: 'https://gbfs.citibikenyc.com/gbfs/2.3/gbfs.json' },
  'bay-wheels': { adapter: 'gbfs', url: 'https://gbfs.baywheels.com/gbfs/2.3/gbfs.json' },
  // Metro Bike Share publishes GBFS through BCycle; the shared data holds only its station table.
  'metro-bike-share': { adapter: 'gbfs', url: 'https://gbfs.bcycle.com/bcycle_lametro/gbfs.json' },
};

export const FEEDS_ENV_VAR = 'BIKESHARE_FEEDS';

/** The feed URLs in force: `BIKESHARE_FEEDS` when set, else the defaults. */
export function feedSources(environment: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, FeedSource> {
  const raw = environment[FEEDS_ENV_VAR]?.trim();
  if (!raw) return new Map(Object.entries(defaultFeedSources));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${FEEDS_ENV_VAR} is not JSON: give an object of system id -> feed URL`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${FEEDS_ENV_VAR} must be an object of system id -> feed URL`);
  const sources = new Map<string, FeedSource>();
  for (const [systemId, url] of Object.entries(parsed)) {
    const known = defaultFeedSources[systemId];
    if (!known) throw new Error(`${FEEDS_ENV_VAR} names an unknown system ${systemId} (known: ${Object.keys(defaultFeedSources).join(', ')})`);
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`${FEEDS_ENV_VAR}.${systemId} must be an http(s) URL`);
    sources.set(systemId, { ...known, url });
  }
  return sources;
}
