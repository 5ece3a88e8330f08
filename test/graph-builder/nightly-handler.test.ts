import { createHash } from 'node:crypto';
import { readFile, mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CityId } from '../../core/cities/cities.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { inputKey } from '../../platform/inputs.ts';
import { handler as dispatch } from '../../graph-builder/build-dispatch-handler.ts';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { configuredSources, downloadLimits, handler, retryDelaySeconds, sourcesRecordKey, type CityOutcome } from '../../graph-builder/nightly-handler.ts';
import { LOCAL_ACCOUNT, LocalQueue, lambdaContext } from '../../lib/local/queue.ts';
import { sqsRequestListener } from '../../lib/local/sqs-endpoint.ts';

/**
 * The nightly build on the local platform: one in-process queue per city (lib/local/queue.ts, the
 * SQS semantics the stack's build queues have) consumed by the build handler, behind the local
 * SQS endpoint; s3rver as the graphs bucket, holding the static inputs the stack uploads; and an
 * HTTP server in this test serving the shared data's extracts with an ETag and a Last-Modified,
 * answering 304 to a request that names them. New York's server accepts and then says nothing.
 */

const BUCKET = 'graphs-nightly-test';
const BUILT: CityId[] = ['sf-bay', 'los-angeles'];
const STALLED: CityId = 'new-york';
const LAST_MODIFIED = 'Tue, 24 Nov 2026 03:00:00 GMT';

let s3rver: S3rver;
let extracts: Server;
let sqsServer: Server;
let client: S3Client;
const queues = new Map<string, LocalQueue>();
/** Every build invocation's answer, per city, in order. */
const outcomes = new Map<CityId, (SQSBatchResponse & { cities: CityOutcome[]; failures: { city: string; error: string }[] })[]>();
/** Requests the extract server saw: path and whether they were conditional. */
const requests: { path: string; conditional: boolean; status: number }[] = [];
const stalled: IncomingMessage[] = [];

const getText = async (key: string): Promise<string> => (await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString());
const keys = async (prefix: string): Promise<string[]> => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((object) => object.Key!);
const queueName = (city: CityId) => `graph-build-${city}`;

/** Serves `/<city>/<file>` from the city's extracts in the shared data folder. */
async function serveExtract(request: IncomingMessage, respond: (status: number, headers: Record<string, string>, body?: Buffer) => void): Promise<void> {
  const [, city, file] = (request.url ?? '').split('/');
  if (city === STALLED) {
    stalled.push(request); // headers never come: the download's total timeout must end it
    return;
  }
  const extract = buildableCity(city as CityId).graph.extracts.find((path) => basename(path) === file);
  if (!extract) return respond(404, {});
  const bytes = await readFile(join(sharedDataPath(), extract));
  const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
  const conditional = request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined;
  const status = request.headers['if-none-match'] === etag ? 304 : 200;
  requests.push({ path: request.url!, conditional, status });
  respond(status, { ETag: etag, 'Last-Modified': LAST_MODIFIED, ...(status === 200 ? { 'Content-Length': String(bytes.length) } : {}) }, status === 200 ? bytes : undefined);
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

/** Queues one build per city as the daily schedule does, and waits until each city's build has answered `runs` times in all. */
async function nightlyRun(runs: number): Promise<void> {
  await dispatch({}, lambdaContext('graph-build-dispatch', 30));
  for (;;) {
    const answered = [...BUILT, STALLED].every((city) => (outcomes.get(city)?.length ?? 0) >= runs);
    if (answered) return;
    await new Promise((done) => setTimeout(done, 50));
  }
}

beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: await mkdtemp(join(tmpdir(), 's3rver-')), silent: true, allowMismatchedSignatures: true });
  const { port } = await s3rver.run();
  extracts = createServer((request, response) => void serveExtract(request, (status, headers, body) => response.writeHead(status, headers).end(body)));
  const extractsUrl = await listen(extracts);
  sqsServer = createServer();
  const sqsUrl = await listen(sqsServer);
  sqsServer.on('request', sqsRequestListener(queues, () => sqsUrl));

  const cities = [...BUILT, STALLED];
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    AWS_ENDPOINT_URL_SQS: sqsUrl,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    BUCKET_GRAPHS: BUCKET,
    GRAPH_SOURCE_URLS: JSON.stringify(Object.fromEntries(cities.map((city) => [city, buildableCity(city).graph.extracts.map((path) => `${extractsUrl}/${city}/${basename(path)}`)]))),
    GRAPH_BUILD_QUEUES: JSON.stringify(Object.fromEntries(cities.map((city) => [city, `${sqsUrl}/${LOCAL_ACCOUNT}/${queueName(city)}`]))),
    // Shortened for the test: the stalled server must fail its city within a second.
    GRAPH_DOWNLOAD_CONNECT_TIMEOUT_SECONDS: '1',
    GRAPH_DOWNLOAD_TIMEOUT_SECONDS: '1',
  });
  client = new S3Client({ forcePathStyle: true });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  // What the stack's static-inputs upload puts there: the cities' elevation models.
  for (const { file } of cities.flatMap((city) => buildableCity(city).graph.elevation ?? [])) {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: inputKey(file), Body: await readFile(join(sharedDataPath(), file)) }));
  }

  for (const city of cities) {
    const deadLetterQueue = new LocalQueue({ name: `${queueName(city)}-dlq`, visibilityTimeoutSeconds: 60 });
    const queue = new LocalQueue({ name: queueName(city), visibilityTimeoutSeconds: 60, maxReceiveCount: 3, batchSize: 1, deadLetterQueue });
    queues.set(queue.options.name, queue);
    queue.subscribe(async (event: SQSEvent, context: Context) => {
      const answer = await handler(event, context);
      outcomes.set(city, [...(outcomes.get(city) ?? []), answer]);
      return answer;
    });
  }
});

afterAll(async () => {
  for (const queue of queues.values()) await queue.stop();
  for (const request of stalled) request.socket.destroy();
  await s3rver?.close();
  for (const server of [extracts, sqsServer]) await new Promise((done) => server?.close(done));
});

describe('nightly graph build, one invocation per city', () => {
  it('first run: builds and publishes each city; the stalled download fails its city within its timeout while the others publish', async () => {
    await nightlyRun(1);
    for (const city of BUILT) {
      const [answer] = outcomes.get(city)!;
      expect(answer!.batchItemFailures).toEqual([]);
      expect(answer!.cities).toEqual([expect.objectContaining({ city, status: 'built' })]);
      const pointer = parseGraphPointer(await getText(currentPointerKey(city)));
      expect(pointer.graph_version).toBe(answer!.cities[0]!.graph_version);
      const graph = openGraph(await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: pointer.key }))).Body!.transformToByteArray());
      expect(graph.header).toMatchObject({ city, graph_version: pointer.graph_version, source_hash: pointer.source_hash });
      expect(graph.edgeCount).toBeGreaterThan(0);
      // The record the next run asks "changed since?" with.
      const record = JSON.parse(await getText(sourcesRecordKey(city)));
      expect(record.source_hash).toBe(pointer.source_hash);
      expect(record.extracts).toHaveLength(buildableCity(city).graph.extracts.length);
      for (const extract of record.extracts) expect(extract).toMatchObject({ etag: expect.stringMatching(/^"/), lastModified: LAST_MODIFIED });
    }
    const [failed] = outcomes.get(STALLED)!;
    expect(failed!.batchItemFailures).toHaveLength(1);
    expect(failed!.cities).toEqual([]);
    expect(failed!.failures).toEqual([{ city: STALLED, error: expect.stringMatching(/download of .*new-york.* failed: not complete within 1 s/) }]);
    expect(stalled.length).toBeGreaterThan(0);
    expect(await keys(`cities/${STALLED}/`)).toEqual([]);
    // Its message waits out the first retry delay instead of coming straight back.
    expect(queues.get(queueName(STALLED))!.counts()).toEqual({ visible: 0, inFlight: 1 });
    expect(requests.every((request) => !request.conditional)).toBe(true);
  });

  it('second run: every server answers 304 to the recorded validators, and nothing is built or published', async () => {
    const before = new Map(await Promise.all(BUILT.map(async (city) => [city, await keys(`cities/${city}/`)] as const)));
    const pointers = new Map(await Promise.all(BUILT.map(async (city) => [city, await getText(currentPointerKey(city))] as const)));
    requests.length = 0;
    await nightlyRun(2);
    for (const city of BUILT) {
      const answer = outcomes.get(city)![1]!;
      expect(answer.batchItemFailures).toEqual([]);
      expect(answer.cities).toEqual([expect.objectContaining({ city, status: 'unchanged' })]);
      expect(await getText(currentPointerKey(city))).toBe(pointers.get(city));
      expect(await keys(`cities/${city}/`)).toEqual(before.get(city));
    }
    expect(requests.length).toBe(BUILT.reduce((sum, city) => sum + buildableCity(city).graph.extracts.length, 0));
    expect(requests.every((request) => request.conditional && request.status === 304)).toBe(true);
  });

  it('a city whose configured input is missing from the bucket fails loudly instead of building without it', async () => {
    const dem = buildableCity('sf-bay').graph.elevation![0]!.file;
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: inputKey(dem) }));
    const queue = queues.get(queueName('sf-bay'))!;
    const pointer = await getText(currentPointerKey('sf-bay'));
    const answered = outcomes.get('sf-bay')!.length;
    queue.send(JSON.stringify({ city: 'sf-bay' }));
    while (outcomes.get('sf-bay')!.length === answered) await new Promise((done) => setTimeout(done, 50));
    expect(outcomes.get('sf-bay')!.at(-1)!.batchItemFailures).toHaveLength(1);
    expect(outcomes.get('sf-bay')!.at(-1)!.failures).toEqual([{ city: 'sf-bay', error: expect.stringContaining(`${inputKey(dem)} is missing from the graphs bucket`) }]);
    expect(await getText(currentPointerKey('sf-bay'))).toBe(pointer);
  });
});

describe('build settings', () => {
  it('reads sources per city and rejects unknown city ids', () => {
    expect(configuredSources({ GRAPH_SOURCE_URLS: '{"london":["https://a/x.pbf","https://a/y.pbf"]}' })).toEqual(new Map([['london', ['https://a/x.pbf', 'https://a/y.pbf']]]));
    expect(() => configuredSources({ GRAPH_SOURCE_URLS: '{"nyc":"https://a/x.pbf"}' })).toThrow(/unknown city "nyc"/);
    // The same rules as the stack's synth (graph-builder/sources.ts): no plain http off the loopback interface.
    expect(() => configuredSources({ GRAPH_SOURCE_URLS: '{"london":"http://example.org/x.pbf"}' })).toThrow(/https/);
    expect(configuredSources({}).get('new-york')).toEqual(buildableCity('new-york').graph.nightlySources);
  });

  it('reads the download limits, refusing nonsense', () => {
    expect(downloadLimits({})).toEqual({ connectTimeoutMs: 30_000, totalTimeoutMs: 600_000 });
    expect(downloadLimits({ GRAPH_DOWNLOAD_CONNECT_TIMEOUT_SECONDS: '5', GRAPH_DOWNLOAD_TIMEOUT_SECONDS: '120' })).toEqual({ connectTimeoutMs: 5000, totalTimeoutMs: 120_000 });
    expect(() => downloadLimits({ GRAPH_DOWNLOAD_TIMEOUT_SECONDS: '0' })).toThrow(/positive/);
  });

  it('backs off: 5 minutes after the first failure, then 20', () => {
    expect([1, 2].map(retryDelaySeconds)).toEqual([300, 1200]);
  });
});
