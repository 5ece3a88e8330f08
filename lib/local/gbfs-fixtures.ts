import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { closeServer, listen } from './servers.ts';

/**
 * Serves the recorded bike-share feeds of `shared/data/gbfs/` over HTTP, so the ingestion runs
 * locally exactly as in AWS: discovery first, then each feed by the URL discovery gives.
 *
 *   /<set>/gbfs.json                 the set's discovery document
 *   /<set>/<language>/<feed>.json    a 1.x/2.x feed (only in the recorded language)
 *   /<set>/<feed>.json               a 3.x feed
 *   /<set>/BikePoint                 TfL's BikePoint collection
 *
 * Files are served byte for byte. Discovery is the one document the server writes: a recorded
 * `gbfs.json` has its feed URLs pointed at this server (they named the operator's host, or
 * `file:` paths in the 3.0 reference set); a set recorded without one (Citi Bike) gets a
 * discovery document listing the files it has, stamped with their newest `last_updated`.
 * Tests can make any path answer differently (`override`) and read how often each was asked.
 */

export type FixtureSet =
  | {
      readonly kind: 'gbfs';
      /** Path under the data folder of a recorded `gbfs.json`, if the set has one. */
      readonly discovery?: string;
      /** Feed name (as discovery names it) -> path under the data folder. */
      readonly feeds: Readonly<Record<string, string>>;
      /** The language the feeds were recorded in. */
      readonly language?: string;
    }
  | { readonly kind: 'tfl-bikepoint'; readonly file: string };

/**
 * What the local platform serves for the cities' systems. Bay Wheels mixes recordings: stations
 * from 2023, free-floating e-bikes from 2020 (the only dockless recording of the four cities),
 * discovery from 2020. Metro Bike Share (Los Angeles) has no recorded availability feed.
 */
export const citySystemFixtures: Readonly<Record<string, FixtureSet>> = {
  'santander-cycles': { kind: 'tfl-bikepoint', file: 'gbfs/santander-cycles-london/2026-02-22/BikePoint.json' },
  'citi-bike': {
    kind: 'gbfs',
    feeds: {
      station_information: 'gbfs/citi-bike/2024-10-02T1903Z/station_information.json',
      station_status: 'gbfs/citi-bike/2024-10-02T1903Z/station_status.json',
    },
  },
  'bay-wheels': {
    kind: 'gbfs',
    discovery: 'gbfs/bay-wheels/2020-05-21T1955Z/gbfs.json',
    feeds: {
      system_information: 'gbfs/bay-wheels/2023-07-19T1906Z/system_information.json',
      station_information: 'gbfs/bay-wheels/2023-07-19T1906Z/station_information.json',
      station_status: 'gbfs/bay-wheels/2023-07-19T1906Z/station_status.json',
      free_bike_status: 'gbfs/bay-wheels/2020-05-22T1958Z/free_bike_status.json',
      system_alerts: 'gbfs/bay-wheels/2023-07-19T1906Z/system_alerts.json',
    },
  },
};

const divvy = (feed: string) => `gbfs/_reference-divvy-chicago-lyft-2.3/2025-01-29T0947Z/${feed}.json`;
const almere = (feed: string) => `gbfs/_reference-check-almere-gbfs-3.0/2025-05-21T0748Z/${feed}.json`;

/** Complete real GBFS 2.3 and 3.0 sets of systems outside the four cities, for parser tests. */
export const referenceFixtures: Readonly<Record<string, FixtureSet>> = {
  'divvy-2.3': {
    kind: 'gbfs',
    discovery: divvy('gbfs'),
    feeds: Object.fromEntries(
      ['system_information', 'station_information', 'station_status', 'free_bike_status', 'vehicle_types', 'system_pricing_plans', 'system_regions', 'system_alerts', 'system_hours', 'system_calendar', 'gbfs_versions'].map((feed) => [feed, divvy(feed)]),
    ),
  },
  'almere-3.0': {
    kind: 'gbfs',
    discovery: almere('gbfs'),
    feeds: Object.fromEntries(['system_information', 'vehicle_types', 'vehicle_status', 'geofencing_zones'].map((feed) => [feed, almere(feed)])),
  },
};

export interface FixtureResponse {
  status?: number;
  body: string | Uint8Array;
}

export class FeedFixtureServer {
  private server?: Server;
  private baseUrl = '';
  private readonly overrides = new Map<string, FixtureResponse>();
  private readonly cache = new Map<string, Uint8Array>();
  /** Requests per path, for tests that check what the ingestion asks for. */
  readonly requests = new Map<string, number>();

  constructor(
    private readonly dataPath: string,
    private readonly sets: Readonly<Record<string, FixtureSet>>,
  ) {}

  async start(host = '127.0.0.1', port = 0): Promise<string> {
    this.server = createServer((request, response) => void this.serve(request, response));
    const bound = await listen(this.server, { host, port, envVar: 'none', service: 'the bike-share feed fixtures' });
    this.baseUrl = `http://${host}:${bound}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    if (this.server) await closeServer(this.server);
  }

  get url(): string {
    return this.baseUrl;
  }

  /** The URL the ingestion is configured with for a set: its discovery document or BikePoint. */
  entryUrl(set: string): string {
    const fixture = this.sets[set];
    if (!fixture) throw new Error(`No fixture set ${set}`);
    return fixture.kind === 'tfl-bikepoint' ? `${this.baseUrl}/${set}/BikePoint` : `${this.baseUrl}/${set}/gbfs.json`;
  }

  /** Makes a path (as served, e.g. `/citi-bike/en/station_status.json`) answer this instead. */
  override(path: string, response: FixtureResponse): void {
    this.overrides.set(path, response);
  }

  clearOverrides(): void {
    this.overrides.clear();
  }

  /** The recorded bytes of a file under the data folder. */
  async recorded(relativePath: string): Promise<Uint8Array> {
    let bytes = this.cache.get(relativePath);
    if (!bytes) {
      bytes = new Uint8Array(await readFile(join(this.dataPath, relativePath)));
      this.cache.set(relativePath, bytes);
    }
    return bytes;
  }

  /** The path a feed of a set is served at. */
  feedPath(set: string, feed: string): string {
    const fixture = this.sets[set];
    if (!fixture) throw new Error(`No fixture set ${set}`);
    if (fixture.kind === 'tfl-bikepoint') return `/${set}/BikePoint`;
    return `/${set}/${fixture.language ?? 'en'}/${feed}.json`;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: string | Uint8Array) => {
      response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      response.end(body);
    };
    // Everything inside: this runs detached from the server, so a throw here would end the process.
    try {
      const path = new URL(request.url ?? '/', 'http://fixtures').pathname;
      this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
      const override = this.overrides.get(path);
      if (override) return send(override.status ?? 200, override.body);
      const body = await this.resolve(path);
      if (body === null) return send(404, JSON.stringify({ error: `No recorded feed at ${path}` }));
      send(200, body);
    } catch (error) {
      send(500, JSON.stringify({ error: (error as Error).message }));
    }
  }

  private async resolve(path: string): Promise<string | Uint8Array | null> {
    const [, set, ...rest] = path.split('/');
    // Names from the request path: only the sets' and feeds' own names count (not `constructor`).
    const fixture = set && Object.hasOwn(this.sets, set) ? this.sets[set] : undefined;
    if (!fixture) return null;
    if (fixture.kind === 'tfl-bikepoint') return rest.join('/') === 'BikePoint' ? this.recorded(fixture.file) : null;
    if (rest.length === 1 && rest[0] === 'gbfs.json') return this.discovery(set!, fixture);
    const language = fixture.language ?? 'en';
    const feed = rest.length === 2 && rest[0] === language ? rest[1] : rest.length === 1 ? rest[0] : undefined;
    const name = feed?.endsWith('.json') ? feed.slice(0, -'.json'.length) : undefined;
    const file = name !== undefined && Object.hasOwn(fixture.feeds, name) ? fixture.feeds[name] : undefined;
    return file ? this.recorded(file) : null;
  }

  private async discovery(set: string, fixture: Extract<FixtureSet, { kind: 'gbfs' }>): Promise<string> {
    const language = fixture.language ?? 'en';
    if (fixture.discovery) {
      const recorded = JSON.parse(new TextDecoder().decode(await this.recorded(fixture.discovery))) as {
        version?: string;
        data: Record<string, unknown>;
      };
      const point = (feeds: { name: string; url: string }[], prefix: string) => {
        for (const feed of feeds) feed.url = `${this.baseUrl}/${set}/${prefix}${feed.name}.json`;
      };
      if (Array.isArray(recorded.data.feeds)) point(recorded.data.feeds as { name: string; url: string }[], '');
      else for (const [lang, entry] of Object.entries(recorded.data)) point((entry as { feeds: { name: string; url: string }[] }).feeds, `${lang}/`);
      return JSON.stringify(recorded);
    }
    const stamps = await Promise.all(
      Object.values(fixture.feeds).map(async (file) => JSON.parse(new TextDecoder().decode(await this.recorded(file))) as { last_updated: number; ttl: number; version?: string }),
    );
    return JSON.stringify({
      last_updated: Math.max(...stamps.map((stamp) => stamp.last_updated)),
      ttl: Math.min(...stamps.map((stamp) => stamp.ttl)),
      ...(stamps[0]?.version ? { version: stamps[0].version } : {}),
      data: { [language]: { feeds: Object.keys(fixture.feeds).map((name) => ({ name, url: `${this.baseUrl}/${set}/${language}/${name}.json` })) } },
    });
  }
}
