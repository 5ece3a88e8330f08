import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { cities, isCityId, type CityId } from '../../../core/cities/index.ts';
import { openGraph } from '../../../core/graph/layout.ts';
import { graphOutputDir } from '../paths.ts';
import { readPointer } from '../../../graph-builder/index.ts';
import { RECOGNISED_SUBTYPES } from '../../../functions/reports/fields.ts';
import { PLAYGROUND_KEY_LIMITS, type DemoCredentials } from '../seed.ts';
import { baseMapOf } from './base-map.ts';
import { sampleRoutes } from './samples.ts';

/**
 * The map playground's own listener (docs/playground.md): the page and its scripts, Leaflet from
 * the project's dependencies, the page's settings, and each city's base map drawn from its
 * routing graph. Everything else the page shows comes from the public API, called from the
 * browser with the demo key exactly as any app calls it; nothing here answers for the API.
 */

const webDir = join(dirname(fileURLToPath(import.meta.url)), 'web');
const leafletDir = join(dirname(createRequire(import.meta.url).resolve('leaflet/package.json')), 'dist');
/** Redoc's standalone build as Redocly CLI ships it (its `build-docs` serves the same file). */
const redocBundle = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'lib/chunks/redoc.standalone.js');
/** Where Redoc's bundle loads its attribution logo from, and the logo's two names there. */
const REDOC_LOGO_ORIGIN = 'https://cdn.redoc.ly/redoc/';
const REDOC_LOGOS = new Set(['logo-mini.svg', 'logo-mini-full.svg']);
/** Served in their place: Redocly's name as text, so the attribution stays. */
const REDOC_WORDMARK = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16"><text x="0" y="12" font-family="system-ui, sans-serif" font-size="12" font-weight="600" fill="#616e7c">Redocly</text></svg>';

/** The only files served: the page's own and Leaflet's build, by exact name. */
const WEB_FILE = /^[a-z][a-z0-9-]*\.(js|css|svg)$/;
const LEAFLET_FILES = new Set(['leaflet-src.esm.js', 'leaflet.css']);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface PlaygroundOptions {
  /** Where the page finds the platform: the two APIs and the identity provider. */
  urls: { base: string; app: string; idp: string };
  /** The identity provider's client of the platform's own rider app, which the page signs in as. */
  riderAppClientId: string;
  /** Cities the platform serves; those with a built graph are offered. */
  cities: readonly CityId[];
  /** Built graphs (default graphOutputDir()). */
  graphDir?: string;
  log?: (line: string) => void;
}

interface CachedBaseMap {
  graphVersion: string;
  gzipped: Buffer;
}

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { 'X-Content-Type-Options': 'nosniff', ...headers });
  response.end(body);
}

const notFound = (response: ServerResponse) => send(response, 404, 'Not found', { 'Content-Type': 'text/plain; charset=utf-8' });

export class Playground {
  private demo: DemoCredentials | null = null;
  /** Redoc's bundle as served (see `redoc`), read once. */
  private redocBundle: Promise<string> | undefined;
  private readonly baseMaps = new Map<CityId, Promise<CachedBaseMap>>();
  private readonly graphDir: string;

  constructor(private readonly options: PlaygroundOptions) {
    this.graphDir = options.graphDir ?? graphOutputDir();
  }

  /** The playground's key and the demo rider, once seeded; until then the page says the platform is starting. */
  useDemo(demo: DemoCredentials): void {
    this.demo = demo;
  }

  /** The redirect URIs the page signs riders in with (its own address, by either loopback name). */
  static redirectUris(port: number): string[] {
    return [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`];
  }

  readonly listener = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return send(response, 405, 'Method not allowed', { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      }
      const path = new URL(request.url ?? '/', 'http://playground').pathname;
      if (path === '/' || path === '/index.html') return await this.page(response);
      if (path === '/config.json') return await this.config(response);
      if (path === '/reference/' || path === '/reference') return await this.reference(response);
      if (path === '/vendor/redoc/redoc.standalone.js') return await this.redoc(response);
      if (path.startsWith('/vendor/redoc/') && REDOC_LOGOS.has(path.slice('/vendor/redoc/'.length))) return send(response, 200, REDOC_WORDMARK, { 'Content-Type': CONTENT_TYPES['.svg']!, 'Cache-Control': 'no-cache' });
      if (path.startsWith('/app/') && WEB_FILE.test(path.slice('/app/'.length))) return await this.file(response, join(webDir, path.slice('/app/'.length)));
      if (path.startsWith('/vendor/leaflet/') && LEAFLET_FILES.has(path.slice('/vendor/leaflet/'.length))) {
        return await this.file(response, join(leafletDir, path.slice('/vendor/leaflet/'.length)));
      }
      const baseMap = /^\/cities\/([a-z-]+)\/base-map\.json$/.exec(path);
      if (baseMap && isCityId(baseMap[1]!) && this.options.cities.includes(baseMap[1])) return await this.baseMap(request, response, baseMap[1]);
      return notFound(response);
    } catch (error) {
      this.options.log?.(`playground: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) send(response, 500, 'The playground failed; see the platform log.', { 'Content-Type': 'text/plain; charset=utf-8' });
    }
  };

  private async page(response: ServerResponse): Promise<void> {
    const { base, app, idp } = this.options.urls;
    send(response, 200, await readFile(join(webDir, 'index.html')), {
      'Content-Type': CONTENT_TYPES['.html']!,
      'Cache-Control': 'no-cache',
      // Everything the page loads is its own or the platform's: a CDN or tile server could not load.
      'Content-Security-Policy': [
        "default-src 'self'",
        `connect-src 'self' ${base} ${app} ${idp}`,
        "img-src 'self' data:",
        "style-src 'self' 'unsafe-inline'",
        "frame-ancestors 'none'",
      ].join('; '),
      'Referrer-Policy': 'no-referrer',
    });
  }

  /** The API reference (web/reference.js): the platform's own OpenAPI documents, rendered by Redoc. */
  private async reference(response: ServerResponse): Promise<void> {
    const { base, app } = this.options.urls;
    send(response, 200, await readFile(join(webDir, 'reference.html')), {
      'Content-Type': CONTENT_TYPES['.html']!,
      'Cache-Control': 'no-cache',
      // Redoc may only read the two documents: nothing from a CDN, no telemetry.
      'Content-Security-Policy': [
        "default-src 'self'",
        `connect-src 'self' ${base} ${app}`,
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "style-src 'self' 'unsafe-inline'",
        "worker-src 'self' blob:",
        "frame-ancestors 'none'",
      ].join('; '),
      'Referrer-Policy': 'no-referrer',
    });
  }

  /**
   * Redoc's standalone build, with the address of its attribution logo moved from Redocly's CDN
   * (which the page's policy blocks, logging an error on every load) to this server.
   */
  private async redoc(response: ServerResponse): Promise<void> {
    this.redocBundle ??= readFile(redocBundle, 'utf8').then((bundle) => bundle.replaceAll(REDOC_LOGO_ORIGIN, '/vendor/redoc/'));
    send(response, 200, await this.redocBundle, { 'Content-Type': CONTENT_TYPES['.js']!, 'Cache-Control': 'no-cache' });
  }

  private async file(response: ServerResponse, file: string): Promise<void> {
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return notFound(response);
    }
    send(response, 200, body, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
  }

  private async config(response: ServerResponse): Promise<void> {
    const demo = this.demo;
    if (!demo) {
      return send(response, 503, JSON.stringify({ error: 'The local platform is still starting (building graphs, seeding the demo key); reload in a moment.' }), {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'Retry-After': '5',
      });
    }
    const offered = [];
    for (const id of this.options.cities) {
      const pointer = await readPointer(this.graphDir, id);
      if (!pointer) continue;
      const city = cities[id];
      offered.push({
        id,
        name: city.name,
        time_zone: city.timeZone,
        lighting_data: city.lightingData,
        bike_share: city.bikeShare.map((system) => system.name),
        graph_version: pointer.graph_version,
        sample_route: sampleRoutes[id],
      });
    }
    const { base, app, idp } = this.options.urls;
    const body = {
      base_url: base,
      app_base_url: app,
      // The playground's own key, as `npm start` prints it: the page is an app like any other,
      // on a plan with room for a person exploring (lib/local/seed.ts).
      api_key: demo.playground_api_key,
      report_categories: RECOGNISED_SUBTYPES,
      api_key_plan: { plan: 'enterprise', per_minute: PLAYGROUND_KEY_LIMITS.perMinute, per_hour: PLAYGROUND_KEY_LIMITS.perHour, per_day: PLAYGROUND_KEY_LIMITS.perDay },
      rider_sign_in: {
        authorize_url: `${idp}/oauth2/authorize`,
        token_url: `${idp}/oauth2/token`,
        client_id: this.options.riderAppClientId,
        demo_email: demo.rider_email,
        demo_password: demo.rider_password,
      },
      cities: offered,
    };
    send(response, 200, JSON.stringify(body), { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  }

  /** The city's base map for its current graph, built once per graph version and sent gzipped. */
  private async baseMap(request: IncomingMessage, response: ServerResponse, city: CityId): Promise<void> {
    const pointer = await readPointer(this.graphDir, city);
    if (!pointer) return notFound(response);
    let cached = this.baseMaps.get(city);
    if (!cached || (await cached.catch(() => null))?.graphVersion !== pointer.graph_version) {
      cached = (async () => {
        const graph = openGraph(new Uint8Array(await readFile(join(this.graphDir, pointer.key))));
        return { graphVersion: pointer.graph_version, gzipped: await promisify(gzip)(JSON.stringify(baseMapOf(graph))) };
      })();
      this.baseMaps.set(city, cached);
    }
    const { graphVersion, gzipped } = await cached;
    const etag = `"${graphVersion}"`;
    if (request.headers['if-none-match'] === etag) return send(response, 304, '', { ETag: etag });
    send(response, 200, gzipped, {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      ETag: etag,
      'Cache-Control': 'no-cache',
    });
  }
}
