import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { cityIds, isCityId, type CityId } from '../core/cities/cities.ts';
import { buildableCity, type BuildableCity, type FoldedReports } from './city-recipes.ts';
import { s3, sqs } from '../platform/aws.ts';
import { withInvocationLogging } from '../platform/invocation-logging.ts';
import { logger } from '../platform/logger.ts';
import { NO_GRAPH_AGE_HOURS } from '../platform/metric-catalogue.ts';
import { recordMetric } from '../platform/metrics.ts';
import { nowMs } from '../platform/clock.ts';
import type { CurrentGraphPointer } from '../core/graph/catalog.ts';
import { queryAll } from '../platform/dynamo-pages.ts';
import { inputKey, missingInputError } from '../platform/inputs.ts';
import { readObjectText } from '../platform/object-store.ts';
import { bucketName, tableName, tables } from '../platform/resources.ts';
import { foldedTags, type AvoidanceItem } from '../core/report-avoidances.ts';
import { buildCity } from './build.ts';
import { downloadToFile, type DownloadLimits, type SourceValidators } from './download.ts';
import { cityInputs, hashFile, sourceHash, type InputFile } from './source-hash.ts';
import { GRAPH_VERSIONS_KEPT, publishedPointer, publishGraph, pruneGraphVersions } from './publish.ts';
import { parseGraphSourceUrls } from './sources.ts';

/**
 * One city's nightly rebuild (spec 1.2.3), one invocation per city: each city has its own
 * function and build queue (lib/graph-rebuild.ts), and a message `{"city": "<id>"}` on that
 * queue (sent by the daily schedule and after every deploy, graph-builder/build-dispatch-handler.ts)
 * runs it. The job downloads the city's extract(s) to /tmp, conditionally when the last build
 * recorded the server's validators; skips the city when nothing changed (every extract answered
 * 304 and the inputs hash as before, or the source hash equals the published graph's); else
 * builds, uploads `cities/<city>/graphs/<graph_version>.graph`, moves `cities/<city>/current.json`
 * to it and records what it downloaded in `cities/<city>/sources.json`. Routers poll the pointer,
 * so a new graph is picked up without a deploy, and a failed build leaves the previous graph in
 * service.
 *
 * A failed build reports the message as failed and pushes its next delivery back (backoff); after
 * the queue's maxReceiveCount deliveries it lands in the dead-letter queue, which alarms.
 *
 * Configuration (environment):
 *   GRAPH_BUILD_CITY   the one city this function builds (its memory and timeout are sized for it)
 *   GRAPH_SOURCE_URLS  JSON: city id -> URL or list of URLs (graph-builder/sources.ts; default: each
 *                      recipe's nightlySources)
 *   GRAPH_DOWNLOAD_CONNECT_TIMEOUT_SECONDS, GRAPH_DOWNLOAD_TIMEOUT_SECONDS  download limits
 *   BUCKET_GRAPHS      the graphs bucket
 * The DEM and the London borough polygons are read from the same bucket under
 * `inputs/<path in the shared data folder>` (uploaded by the stack); a city whose recipe names a
 * file that is absent there fails, rather than build a graph without that layer.
 */

export interface CityBuildMessage {
  readonly city: CityId;
}

export interface CityOutcome {
  readonly city: CityId;
  readonly status: 'built' | 'unchanged';
  readonly graph_version?: string;
  readonly seconds: number;
}

/** What the last build downloaded, kept beside the pointer so the next one can ask "changed since?". */
export interface RecordedSources {
  readonly source_hash: string;
  readonly extracts: readonly ({ readonly url: string; readonly sha256: string; readonly bytes: number } & SourceValidators)[];
}

export const sourcesRecordKey = (city: CityId): string => `cities/${city}/sources.json`;

/** Connect within 30 s, finish within 10 minutes: a whole-metro extract is a few hundred MB. */
const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { connectTimeoutMs: 30_000, totalTimeoutMs: 600_000 };

/**
 * Seconds a failed build's message stays invisible before its next try: 5 minutes, then 20 (the
 * queue's maxReceiveCount bounds the tries). A transient failure (a mirror restarting) gets time
 * to pass; a deterministic one reaches the dead-letter queue within the hour.
 */
export const retryDelaySeconds = (receiveCount: number): number => Math.min(300 * 4 ** Math.max(0, receiveCount - 1), 43_200);

/** The configured sources, in city order. */
export function configuredSources(env: NodeJS.ProcessEnv = process.env): Map<CityId, readonly string[]> {
  const parsed = parseGraphSourceUrls(env.GRAPH_SOURCE_URLS);
  return new Map(cityIds.flatMap((id) => (parsed[id] ? [[id, parsed[id]] as const] : [])));
}

export function downloadLimits(env: NodeJS.ProcessEnv = process.env): DownloadLimits {
  const seconds = (name: string, fallbackMs: number): number => {
    const value = env[name];
    if (value === undefined || value === '') return fallbackMs;
    const parsed = Number(value);
    if (!(parsed > 0)) throw new Error(`${name} must be a positive number of seconds`);
    return parsed * 1000;
  };
  return {
    connectTimeoutMs: seconds('GRAPH_DOWNLOAD_CONNECT_TIMEOUT_SECONDS', DEFAULT_DOWNLOAD_LIMITS.connectTimeoutMs),
    totalTimeoutMs: seconds('GRAPH_DOWNLOAD_TIMEOUT_SECONDS', DEFAULT_DOWNLOAD_LIMITS.totalTimeoutMs),
  };
}

/** Copies `inputs/<relative>` from the bucket into the work folder; a missing input fails the build. */
async function fetchInput(bucket: string, relative: string, dataPath: string): Promise<void> {
  let body: Readable;
  try {
    body = (await s3().send(new GetObjectCommand({ Bucket: bucket, Key: inputKey(relative) }))).Body as Readable;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw missingInputError(relative);
    throw error;
  }
  const target = join(dataPath, relative);
  await mkdir(dirname(target), { recursive: true });
  await pipeline(body, createWriteStream(target));
}

/** The city's accepted-report avoidances; none where the deployment gives the job no reports table. */
async function acceptedAvoidances(city: CityId): Promise<AvoidanceItem[]> {
  if (!process.env[tables.routeAvoidances.envVar]) return [];
  return queryAll<AvoidanceItem>({ TableName: tableName('routeAvoidances'), KeyConditionExpression: 'city = :city', ExpressionAttributeValues: { ':city': city } });
}

/**
 * What the rebuild folds into the city's ways: every permanent avoidance the graph can hold as
 * tags (core/report-avoidances.ts `foldedTags`), keyed by way, with the reports it came from. Null when
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

async function recordedSources(bucket: string, city: CityId): Promise<RecordedSources | null> {
  const text = await readObjectText(bucket, sourcesRecordKey(city));
  return text ? (JSON.parse(text) as RecordedSources) : null;
}

interface Downloaded {
  readonly paths: string[];
  readonly record: RecordedSources['extracts'];
}

/**
 * Downloads every extract. With a record of the same URLs, each request is conditional; when
 * every one answers 304 the result is null (nothing was downloaded), and when only some do, those
 * are fetched again in full, since the build needs every extract.
 */
async function downloadExtracts(city: CityId, urls: readonly string[], dataPath: string, previous: RecordedSources | null, limits: DownloadLimits): Promise<Downloaded | null> {
  const sameUrls = previous !== null && previous.extracts.length === urls.length && previous.extracts.every((extract, index) => extract.url === urls[index]);
  const paths = urls.map((url, index) => join(dataPath, 'downloads', city, `${index}-${basename(new URL(url).pathname) || 'extract'}`));
  await mkdir(join(dataPath, 'downloads', city), { recursive: true });
  const validators: (SourceValidators | undefined)[] = urls.map(() => undefined);
  const pending: number[] = [];
  for (const [index, url] of urls.entries()) {
    const recorded = sameUrls ? previous.extracts[index] : undefined;
    const result = await downloadToFile(url, paths[index]!, limits, recorded);
    if (result.status === 'downloaded') validators[index] = result.validators;
    else pending.push(index);
    logger.info('extract download', { city, url, status: result.status, ...(result.status === 'downloaded' ? { bytes: result.bytes } : {}) });
  }
  if (pending.length === urls.length) return null;
  for (const index of pending) {
    const result = await downloadToFile(urls[index]!, paths[index]!, limits);
    if (result.status === 'downloaded') validators[index] = result.validators;
  }
  const hashes = await Promise.all(paths.map((path) => hashFile(path)));
  return { paths, record: urls.map((url, index) => ({ url, sha256: hashes[index]!.sha256, bytes: hashes[index]!.bytes, ...validators[index] })) };
}

/** The source hash of a build whose extracts are the recorded ones (all answered 304) and whose other inputs are on disk. */
async function hashWithRecordedExtracts(city: BuildableCity, dataPath: string, recorded: RecordedSources): Promise<string> {
  const extracts: InputFile[] = recorded.extracts.map((extract) => ({ path: extract.url, name: basename(extract.url), bytes: extract.bytes, sha256: extract.sha256 }));
  const others = await cityInputs({ ...city, graph: { ...city.graph, extracts: [] } }, dataPath);
  return sourceHash(city, [...extracts, ...others.files]);
}

/**
 * What a build keeps of its invocation for writing the graph, its report and publishing them
 * (a 908 MB graph is written in seconds and uploaded in about a minute; docs/operations.md).
 */
export const PUBLISH_RESERVE_MS = 3 * 60_000;

/**
 * When the build's hierarchy stage must have finished (BuildOptions.hierarchyDeadline): the
 * invocation's end less PUBLISH_RESERVE_MS, or less a quarter of what remains in a shorter
 * invocation (a local queue's). A build that would otherwise be cut off by Lambda's timeout, and
 * retried only to be cut off again, publishes a graph whose slowest hierarchies the router
 * replaces with landmark bounds.
 */
export function hierarchyDeadline(nowMs: number, remainingMs: number): number {
  return nowMs + remainingMs - Math.min(PUBLISH_RESERVE_MS, remainingMs / 4);
}

/** Builds and publishes one city, or finds it unchanged. Throws on any failure. */
async function rebuildCity(cityId: CityId, urls: readonly string[], bucket: string, workDir: string, deadline: number, limits: DownloadLimits = downloadLimits()): Promise<CityOutcome> {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  const city = buildableCity(cityId);
  const dataPath = join(workDir, 'data');
  for (const model of city.graph.elevation ?? []) await fetchInput(bucket, model.file, dataPath);
  if (city.graph.areas) await fetchInput(bucket, city.graph.areas.file, dataPath);
  const folded = foldedReports(await acceptedAvoidances(city.id));
  const withInputs = (extracts: readonly string[]): BuildableCity => ({ ...city, graph: { ...city.graph, extracts, ...(folded ? { folded } : {}) } });

  const published = await publishedPointer(bucket, city.id);
  const previous = await recordedSources(bucket, city.id);
  let downloaded = await downloadExtracts(city.id, urls, dataPath, previous, limits);
  if (!downloaded) {
    // Every server answered 304: unchanged, unless the DEM, the areas or the folded reports moved.
    if (published && previous && (await hashWithRecordedExtracts(withInputs([]), dataPath, previous)) === published.source_hash) {
      logger.info('graph unchanged: sources not modified', { city: city.id, graph_version: published.graph_version });
      return { city: city.id, status: 'unchanged', graph_version: published.graph_version, seconds: seconds() };
    }
    // Something else changed, so the build needs the extracts after all: fetch them unconditionally.
    downloaded = (await downloadExtracts(city.id, urls, dataPath, null, limits))!;
  }
  // Absolute extract paths resolve to themselves against the data folder.
  const nightlyCity = withInputs(downloaded.paths);
  const { hash } = await cityInputs(nightlyCity, dataPath);
  const record: RecordedSources = { source_hash: hash, extracts: downloaded.record };
  if (published?.source_hash === hash) {
    await putJson(bucket, sourcesRecordKey(city.id), record);
    logger.info('graph unchanged: same source hash', { city: city.id, graph_version: published.graph_version });
    return { city: city.id, status: 'unchanged', graph_version: published.graph_version, seconds: seconds() };
  }
  const outDir = join(workDir, 'out');
  const result = await buildCity({
    city: nightlyCity, dataPath, outDir,
    onStage: (stage) => logger.info('graph build stage', { city: city.id, ...stage }),
    hierarchyDeadline: deadline,
  });
  const leftOut = result.report.warnings.find((warning) => warning.key === 'hierarchy_left_out_out_of_time');
  // Metrics are contracted in HIERARCHY_METRICS' order: those left out are the first named and every one after it.
  if (leftOut) logger.warn('graph built without some hierarchies: time ran out', { city: city.id, left_out: leftOut.count, metrics: leftOut.examples });
  await s3().send(new PutObjectCommand({
    Bucket: bucket,
    Key: `cities/${city.id}/reports/${result.pointer.graph_version}.json`,
    Body: await readFile(join(outDir, 'cities', city.id, 'report.json')),
    ContentType: 'application/json',
  }));
  await publishGraph(bucket, city.id, result.pointer, await readFile(result.graphPath));
  await putJson(bucket, sourcesRecordKey(city.id), record);
  logger.info('graph published', { city: city.id, graph_version: result.pointer.graph_version, seconds: result.report.build_seconds, peak_rss_mb: result.report.peak_rss_mb, bytes: result.report.output_bytes });
  await pruneOldGraphVersions(bucket, city.id);
  return { city: city.id, status: 'built', graph_version: result.pointer.graph_version, seconds: seconds() };
}

/**
 * Deletes the city's graph versions beyond the newest few (publish.ts GRAPH_VERSIONS_KEPT). The
 * graph is published by then, so a failure here must not fail the build and have it retried:
 * it is logged, and the next publish prunes what this one left.
 */
async function pruneOldGraphVersions(bucket: string, city: CityId): Promise<void> {
  try {
    const deleted = await pruneGraphVersions(bucket, city);
    if (deleted.length > 0) logger.info('old graph versions deleted', { city, kept: GRAPH_VERSIONS_KEPT, deleted });
  } catch (error) {
    logger.warn('old graph versions not deleted', { city, error: (error as Error).message });
  }
}

async function putJson(bucket: string, key: string, value: unknown): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(value), ContentType: 'application/json' }));
}

/** The city a message asks for, if it is this function's city and a configured one. */
function requestedCity(record: SQSRecord, ownCity: string | undefined): CityId {
  const body = JSON.parse(record.body) as Partial<CityBuildMessage>;
  const city = body.city;
  if (typeof city !== 'string' || !isCityId(city)) throw new Error(`message ${record.messageId} names no known city`);
  if (ownCity && city !== ownCity) throw new Error(`message for ${city} reached the build function of ${ownCity}`);
  return city;
}

/** The queue URL of an SQS record, from its ARN (arn:aws:sqs:<region>:<account>:<name>). */
export function queueUrlOf(eventSourceArn: string): string {
  const [, , , region, account, name] = eventSourceArn.split(':');
  const endpoint = process.env.AWS_ENDPOINT_URL_SQS ?? `https://sqs.${region}.amazonaws.com`;
  return `${endpoint}/${account}/${name}`;
}

async function postponeRetry(record: SQSRecord): Promise<void> {
  const delay = retryDelaySeconds(Number(record.attributes.ApproximateReceiveCount ?? 1));
  await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrlOf(record.eventSourceARN), ReceiptHandle: record.receiptHandle, VisibilityTimeout: delay }));
  logger.info('graph build retry postponed', { seconds: delay });
}

/**
 * GraphAge after a failed build: hours since the graph in service was built, which is how long
 * the city has gone without a graph of its newest source (the failed build was of a newer one, or
 * failed before it could tell); NO_GRAPH_AGE_HOURS when the city has no graph at all. A build that
 * published, or found its source unchanged, leaves the city up to date: 0.
 */
export function graphAgeAfterFailure(published: Pick<CurrentGraphPointer, 'built_at'> | null, atMs: number): number {
  if (!published) return NO_GRAPH_AGE_HOURS;
  return Math.max(0, (atMs - Date.parse(published.built_at)) / 3_600_000);
}

/** Every build attempt says how stale its city is; a pointer that cannot be read says nothing. */
async function recordFailedBuildAge(bucket: string, city: CityId): Promise<void> {
  try {
    recordMetric('GraphAge', graphAgeAfterFailure(await publishedPointer(bucket, city), nowMs()), { City: city });
  } catch (error) {
    logger.warn('graph age unknown: the current pointer could not be read', { city, error: (error as Error).message });
  }
}

/** Builds the city of each message (the queue delivers one at a time); failures go back with a delay. */
async function buildFromQueue(event: SQSEvent, context: Context): Promise<SQSBatchResponse & { cities: CityOutcome[]; failures: { city: string; error: string }[] }> {
  const bucket = bucketName('graphs');
  const sources = configuredSources();
  const outcomes: CityOutcome[] = [];
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const failures: { city: string; error: string }[] = [];
  for (const record of event.Records) {
    let city: string = 'unknown';
    const workDir = await mkdtemp(join(tmpdir(), 'graph-'));
    try {
      city = requestedCity(record, process.env.GRAPH_BUILD_CITY);
      const urls = sources.get(city as CityId);
      if (!urls?.length) throw new Error(`no sources are configured for ${city}`);
      outcomes.push(await rebuildCity(city as CityId, urls, bucket, workDir, hierarchyDeadline(Date.now(), context.getRemainingTimeInMillis())));
      recordMetric('GraphAge', 0, { City: city });
    } catch (error) {
      logger.error('graph rebuild failed', { city, error: (error as Error).message });
      if (isCityId(city)) await recordFailedBuildAge(bucket, city);
      batchItemFailures.push({ itemIdentifier: record.messageId });
      failures.push({ city, error: (error as Error).message });
      await postponeRetry(record).catch((postponeError: unknown) =>
        logger.warn('graph build retry not postponed; the queue redelivers it after its visibility timeout', { error: (postponeError as Error).message }));
    } finally {
      // /tmp survives between invocations of a warm Lambda; leave nothing behind.
      await rm(workDir, { recursive: true, force: true });
    }
  }
  return { batchItemFailures, cities: outcomes, failures };
}

/** The build queue's consumer: every line it logs carries the invocation's ids. */
export const handler = withInvocationLogging(buildFromQueue);
