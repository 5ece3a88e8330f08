import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildableCity } from '../../graph-builder/cities.ts';
import { sharedDataPath } from '../../core/paths.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { configuredSources, handler } from '../../graph-builder/nightly-handler.ts';
import { lambdaContext } from '../../lib/local/queue.ts';
import { fixturePath } from './helpers.ts';

/** The nightly job against a local HTTP server (the extract download) and s3rver (the bucket). */
const BUCKET = 'graphs-nightly-test';
let s3rver: S3rver;
let http: Server;
let httpPort: number;
let client: S3Client;
const extract = fixturePath('sf-hill.osm');

const getText = async (key: string): Promise<string> =>
  (await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString());

beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: await mkdtemp(join(tmpdir(), 's3rver-')), silent: true, allowMismatchedSignatures: true });
  const { port } = await s3rver.run();
  http = createServer((request, response) => {
    if (request.url !== '/extract.osm') {
      response.writeHead(404).end();
      return;
    }
    void readFile(extract).then((bytes) => response.writeHead(200).end(bytes));
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  httpPort = (http.address() as { port: number }).port;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    BUCKET_GRAPHS: BUCKET,
    GRAPH_SOURCE_URLS: JSON.stringify({ 'sf-bay': `http://127.0.0.1:${httpPort}/extract.osm` }),
  });
  client = new S3Client({ forcePathStyle: true });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  const dem = join(sharedDataPath(), buildableCity('sf-bay').graph.dem!);
  if (existsSync(dem)) {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `inputs/${buildableCity('sf-bay').graph.dem!}`, Body: await readFile(dem) }));
  }
});

afterAll(async () => {
  await s3rver?.close();
  await new Promise((done) => http?.close(done));
});

describe('nightly rebuild handler', () => {
  it('downloads, builds, uploads the graph and then moves the pointer', async () => {
    const result = await handler({}, lambdaContext('nightly-graph-rebuild', 900));
    expect(result.cities).toEqual([expect.objectContaining({ city: 'sf-bay', status: 'built' })]);
    const pointer = parseGraphPointer(await getText(currentPointerKey('sf-bay')));
    expect(pointer.graph_version).toBe(result.cities[0]!.graph_version);
    const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: pointer.key }));
    const graph = openGraph(await object.Body!.transformToByteArray());
    expect(graph.header).toMatchObject({ city: 'sf-bay', graph_version: pointer.graph_version, source_hash: pointer.source_hash });
    expect(graph.edgeCount).toBeGreaterThan(0);
    if (existsSync(join(sharedDataPath(), buildableCity('sf-bay').graph.dem!))) expect(graph.header.elevation.source).toBe('dem');
    expect(JSON.parse(await getText(`cities/sf-bay/reports/${pointer.graph_version}.json`))).toMatchObject({ city: 'sf-bay' });
  });

  it('skips the build when the extract has not changed', async () => {
    const before = await getText(currentPointerKey('sf-bay'));
    expect((await handler({ cities: ['sf-bay'] }, lambdaContext('nightly-graph-rebuild', 900))).cities).toEqual([expect.objectContaining({ city: 'sf-bay', status: 'unchanged' })]);
    expect(await getText(currentPointerKey('sf-bay'))).toBe(before);
  });

  it('fails loudly and keeps the published graph when a download fails', async () => {
    const before = await getText(currentPointerKey('sf-bay'));
    process.env.GRAPH_SOURCE_URLS = JSON.stringify({ 'sf-bay': `http://127.0.0.1:${httpPort}/missing.osm` });
    await expect(handler({}, lambdaContext('nightly-graph-rebuild', 900))).rejects.toThrow(/sf-bay \(download of .* failed: HTTP 404\)/);
    expect(await getText(currentPointerKey('sf-bay'))).toBe(before);
  });

  it('reads sources per city and rejects unknown city ids', () => {
    expect(configuredSources({ GRAPH_SOURCE_URLS: '{"london":["https://a/x.pbf","https://a/y.pbf"]}' })).toEqual(new Map([['london', ['https://a/x.pbf', 'https://a/y.pbf']]]));
    expect(() => configuredSources({ GRAPH_SOURCE_URLS: '{"nyc":"https://a/x.pbf"}' })).toThrow(/unknown city "nyc"/);
    // The same rules as the stack's synth (graph-builder/sources.ts): no plain http off the loopback interface.
    expect(() => configuredSources({ GRAPH_SOURCE_URLS: '{"london":"http://example.org/x.pbf"}' })).toThrow(/https/);
    expect(configuredSources({}).get('new-york')).toEqual(buildableCity('new-york').graph.nightlySources);
  });
});
