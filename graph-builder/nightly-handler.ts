import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { cityIds, isCityId, type CityId } from '../core/cities/cities.ts';
import { buildableCity, type BuildableCity, type FoldedReports } from './cities.ts';
import { s3 } from '../functions/platform/aws.ts';
import { withInvocationLogging } from '../functions/platform/invocation-logging.ts';
import { logger } from '../functions/platform/logger.ts';
import { queryAll } from '../functions/platform/dynamo-pages.ts';
import { bucketName, tableName, tables } from '../functions/platform/resources.ts';
import { foldedTags, type AvoidanceItem } from '../core/avoidances.ts';
import { buildCity } from './build.ts';
import { cityInputs } from './source-hash.ts';
import { publishedPointer, publishGraph } from './publish.ts';
import { parseGraphSourceUrls } from './sources.ts';

/**
 * The nightly rebuild (spec 1.2.3), run by an EventBridge schedule. For each configured city:
 * download its extract(s), skip it if the source hash equals the published graph's, else build,
 * upload `cities/<city>/graphs/<graph_version>.graph`, then move `cities/<city>/current.json` to
 * it. Routers poll the pointer, so a new graph is picked up without a deploy, and a failed build
 * leaves the previous graph in service.
 *
 * Configuration (environment):
 *   GRAPH_SOURCE_URLS  JSON: city id -> URL or list of URLs (graph-builder/sources.ts; default: each
 *                      recipe's nightlySources)
 *   BUCKET_GRAPHS      the graphs bucket
 * The DEM and the London borough polygons are read from the same bucket under
 * `inputs/<path in the shared data folder>`; a city whose file is absent builds without it.
 * Event: a scheduled event builds every configured city; `{ "cities": ["london"] }` builds those.
 */

export interface NightlyEvent {
  readonly cities?: readonly string[];
}

export interface CityOutcome {
  readonly city: CityId;
  readonly status: 'built' | 'unchanged' | 'failed';
  readonly graph_version?: string;
  readonly seconds: number;
  readonly error?: string;
}

/** The configured sources, in city order. */
export function configuredSources(env: NodeJS.ProcessEnv = process.env): Map<CityId, readonly string[]> {
  const parsed = parseGraphSourceUrls(env.GRAPH_SOURCE_URLS);
  return new Map(cityIds.flatMap((id) => (parsed[id] ? [[id, parsed[id]] as const] : [])));
}

async function download(url: string, path: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`download of ${url} failed: HTTP ${response.status}`);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(path));
}

/** Copies `inputs/<relative>` from the bucket into the work folder; false when absent. */
async function fetchAuxiliaryInput(bucket: string, relative: string, dataPath: string): Promise<boolean> {
  try {
    const object = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: `inputs/${relative}` }));
    const target = join(dataPath, relative);
    await mkdir(dirname(target), { recursive: true });
    await pipeline(object.Body as Readable, createWriteStream(target));
    return true;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return false;
    throw error;
  }
}

/** The city's accepted-report avoidances; none where the deployment gives the job no reports table. */
async function acceptedAvoidances(city: CityId): Promise<AvoidanceItem[]> {
  if (!process.env[tables.routeAvoidances.envVar]) return [];
  return queryAll<AvoidanceItem>({ TableName: tableName('routeAvoidances'), KeyConditionExpression: 'city = :city', ExpressionAttributeValues: { ':city': city } });
}

/**
 * What the rebuild folds into the city's ways: every permanent avoidance the graph can hold as
 * tags (core/avoidances.ts `foldedTags`), keyed by way, with the reports it came from. Null when
 * there is nothing to fold, so the source hash stays that of the extracts alone.
 */
export function foldedReports(items: readonly AvoidanceItem[]): FoldedReports | null {
  const wayTags: Record<string, Record<string, string>> = {};
  const reports: string[] = [];
  for (const item of [...items].sort((a, b) => a.report_id.localeCompare(b.report_id))) {
    const tags = foldedTags(item);
    if (!tags || item.way_id === null) continue;
    wayTags[String(item.way_id)] = { ...wayTags[String(item.way_id)], ...tags };
    reports.push(item.report_id);
  }
  return reports.length ? { reports, wayTags } : null;
}

async function rebuildCity(city: BuildableCity, urls: readonly string[], bucket: string, workDir: string): Promise<CityOutcome> {
  const started = Date.now();
  const dataPath = join(workDir, 'data');
  const extracts: string[] = [];
  for (const [index, url] of urls.entries()) {
    const path = join(dataPath, 'downloads', city.id, `${index}-${basename(new URL(url).pathname) || 'extract'}`);
    await mkdir(dirname(path), { recursive: true });
    await download(url, path);
    extracts.push(path);
  }
  const dem = city.graph.dem && (await fetchAuxiliaryInput(bucket, city.graph.dem, dataPath)) ? city.graph.dem : undefined;
  const areas = city.graph.areas && (await fetchAuxiliaryInput(bucket, city.graph.areas.file, dataPath)) ? city.graph.areas : undefined;
  const folded = foldedReports(await acceptedAvoidances(city.id));
  // Absolute extract paths resolve to themselves against the data folder.
  const nightlyCity: BuildableCity = { ...city, graph: { ...city.graph, extracts, dem, areas, ...(folded ? { folded } : {}) } };

  const { hash } = await cityInputs(nightlyCity, dataPath);
  const published = await publishedPointer(bucket, city.id);
  if (published?.source_hash === hash) {
    return { city: city.id, status: 'unchanged', graph_version: published.graph_version, seconds: (Date.now() - started) / 1000 };
  }
  const outDir = join(workDir, 'out');
  const result = await buildCity({ city: nightlyCity, dataPath, outDir });
  await s3().send(new PutObjectCommand({
    Bucket: bucket,
    Key: `cities/${city.id}/reports/${result.pointer.graph_version}.json`,
    Body: await readFile(join(outDir, 'cities', city.id, 'report.json')),
    ContentType: 'application/json',
  }));
  await publishGraph(bucket, city.id, result.pointer, await readFile(result.graphPath));
  logger.info('graph published', { city: city.id, graph_version: result.pointer.graph_version, seconds: result.report.build_seconds, peak_rss_mb: result.report.peak_rss_mb, bytes: result.report.output_bytes });
  return { city: city.id, status: 'built', graph_version: result.pointer.graph_version, seconds: (Date.now() - started) / 1000 };
}

async function rebuild(event: NightlyEvent = {}): Promise<{ cities: CityOutcome[] }> {
  const bucket = bucketName('graphs');
  const sources = configuredSources();
  const requested = Array.isArray(event.cities) ? event.cities.filter(isCityId) : [...sources.keys()];
  const outcomes: CityOutcome[] = [];
  for (const cityId of requested) {
    const urls = sources.get(cityId);
    if (!urls || urls.length === 0) continue;
    const workDir = await mkdtemp(join(tmpdir(), `graph-${cityId}-`));
    const started = Date.now();
    try {
      outcomes.push(await rebuildCity(buildableCity(cityId), urls, bucket, workDir));
    } catch (error) {
      logger.error('graph rebuild failed', { city: cityId, error: (error as Error).message });
      outcomes.push({ city: cityId, status: 'failed', seconds: (Date.now() - started) / 1000, error: (error as Error).message });
    } finally {
      // /tmp survives between invocations of a warm Lambda; leave nothing behind.
      await rm(workDir, { recursive: true, force: true });
    }
  }
  const failed = outcomes.filter((outcome) => outcome.status === 'failed');
  if (failed.length > 0) {
    // Failing the invocation makes the failure visible (async retry, error metrics); the other
    // cities' graphs were still published.
    throw new Error(`Graph rebuild failed for ${failed.map((f) => `${f.city} (${f.error})`).join(', ')}`);
  }
  return { cities: outcomes };
}

/** The scheduled job: every line it logs carries the invocation's ids. */
export const handler = withInvocationLogging(rebuild);
