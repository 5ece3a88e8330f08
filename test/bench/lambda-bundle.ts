/**
 * The directions function's Lambda bundle and its cold start:
 *
 *   npx tsx test/bench/lambda-bundle.ts [--runs 5] [--quiet-below 1] [--write] [--keep <dir>]
 *
 * Bundle: a CDK app holding the stack's own `SpokeFunction` construct for the directions
 * endpoint and for the REQUEST authorizer (lib/spoke-function.ts, the definitions of
 * platform/endpoints.ts) is synthesised, so esbuild runs with exactly the options the
 * stack gives it (ESM for node22, minified, source maps, the AWS SDK bundled). Measured: the bytes
 * of the bundled `index.mjs`, of its source map, and of the asset directory zipped (`zip -9`, as
 * Lambda receives it).
 *
 * Cold start: the local platform is started as `npm start` starts it (every port free, New York
 * only), and each run starts a fresh `node` process on the bundled file with the function's
 * environment (the local endpoints, `NODE_OPTIONS=--enable-source-maps` as the stack sets it),
 * which records, on its own clock from process start (`performance.now()`), when the module is
 * evaluated and the handler ready, and when the first directions request (a proxy event with the
 * authorizer's context, as API Gateway sends it) is answered: that request loads New York's graph
 * from the local S3. A second request shows the warm time. Median and range over `--runs`.
 * Node here is the machine's (20), Lambda's is 22; Lambda's own init (runtime start, fetching the
 * code) comes on top and is not measured here.
 */
import './scratch.ts';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { projectRoot } from '../../lib/project-root.ts';
import { toAuthorizerContext } from '../../functions/auth/principal.ts';
import { authorizerAccess, authorizerEntry, cityRouterAccess, cityRouterEntry } from '../../platform/endpoints.ts';
import { ROUTING_FUNCTION_MEMORY_MB } from '../../platform/function-memory.ts';
import { DataStores } from '../../lib/data-stores.ts';
import { functionEnvironment } from '../../lib/local/provision.ts';
import { SpokeFunction } from '../../lib/spoke-function.ts';
import { startLocalProcess } from '../support/local-process.ts';
import { replaceDocSection, measuredOn } from './doc-section.ts';
import { machineDescription, NEW_YORK_TRIPS, waitForQuiet } from './load.ts';
import { percentile } from './measure.ts';

interface BundleSize {
  name: string;
  entry: string;
  bundleBytes: number;
  sourceMapBytes: number;
  zippedBytes: number;
  directory: string;
}

interface ColdStart {
  readyMs: number;
  firstAnswerMs: number;
  secondAnswerMs: number;
  status: number;
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

/** Synthesises the stack's construct for the two functions and measures their bundles. */
async function bundle(outdir: string): Promise<BundleSize[]> {
  const app = new App({ outdir });
  const stack = new Stack(app, 'BundleBench');
  const dataStores = new DataStores(stack, 'DataStores');
  // Directions runs in a city's routing function (the endpoint's own function only dispatches to it).
  const functions = [
    { name: 'directions', entry: cityRouterEntry, construct: new SpokeFunction(stack, 'Directions', { entry: cityRouterEntry, access: cityRouterAccess, dataStores, description: 'directions', memoryMb: ROUTING_FUNCTION_MEMORY_MB }) },
    { name: 'authorizer', entry: authorizerEntry, construct: new SpokeFunction(stack, 'Authorizer', { entry: authorizerEntry, access: authorizerAccess, dataStores, description: 'authorizer' }) },
  ];
  const assembly = app.synth();
  const template = JSON.parse(await readFile(join(assembly.directory, stack.templateFile), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties?: { Code?: { S3Key?: string } } }>;
  };
  const sizes: BundleSize[] = [];
  for (const { name, entry, construct } of functions) {
    const logicalId = stack.getLogicalId(construct.function.node.defaultChild as never);
    // The function's code is the asset `<hash>.zip`, staged in the assembly as `asset.<hash>`.
    const assetHash = /^([0-9a-f]{64})\.zip$/.exec(template.Resources[logicalId]?.Properties?.Code?.S3Key ?? '')?.[1];
    if (!assetHash) throw new Error(`No code asset for ${name} in the synthesised template`);
    const directory = join(assembly.directory, `asset.${assetHash}`);
    const zipFile = join(await mkdtemp(join(tmpdir(), 'spoke-zip-')), `${name}.zip`);
    const zipped = spawnSync('zip', ['-9', '-q', '-r', '-X', zipFile, '.'], { cwd: directory });
    if (zipped.error || zipped.status !== 0) throw new Error(`zip failed (apt-get install zip): ${zipped.error?.message ?? zipped.stderr.toString()}`);
    const files = await readdir(directory);
    if (!files.includes('index.mjs')) throw new Error(`${directory} has no index.mjs: ${files.join(', ')}`);
    sizes.push({
      name,
      entry,
      bundleBytes: (await stat(join(directory, 'index.mjs'))).size,
      sourceMapBytes: files.includes('index.mjs.map') ? (await stat(join(directory, 'index.mjs.map'))).size : 0,
      zippedBytes: (await stat(zipFile)).size,
      directory,
    });
  }
  return sizes;
}

/** The code the fresh process runs: import the bundle, answer two requests, report its own clock. */
const CHILD = `
const { handler } = await import(process.env.BENCH_BUNDLE_URL);
const readyMs = performance.now();
const event = JSON.parse(process.env.BENCH_EVENT);
const context = {
  functionName: 'directions', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:directions',
  memoryLimitInMB: '1769', awsRequestId: 'cold-start-1', logGroupName: 'bench', logStreamName: 'bench',
  getRemainingTimeInMillis: () => 29000, callbackWaitsForEmptyEventLoop: true,
};
const first = await handler(event, context);
const firstAnswerMs = performance.now();
await handler({ ...event, requestContext: { ...event.requestContext, requestId: 'cold-start-2' } }, { ...context, awsRequestId: 'cold-start-2' });
const secondAnswerMs = performance.now() - firstAnswerMs;
process.stdout.write('COLD_START ' + JSON.stringify({ readyMs, firstAnswerMs, secondAnswerMs, status: first.statusCode }) + '\\n');
process.exit(0);
`;

function directionsEvent(): unknown {
  const keyId = crypto.randomUUID().replaceAll('-', '').slice(0, 16);
  const context = toAuthorizerContext({ kind: 'apikey', keyId, plan: 'enterprise', source: null, limits: { perMinute: 1_000_000, perHour: 10_000_000, perDay: 100_000_000 }, rateBucket: `key:${keyId}` });
  return {
    resource: '/directions/v2',
    path: '/directions/v2/',
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json' },
    multiValueHeaders: { 'Content-Type': ['application/json'] },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      requestId: 'cold-start-1',
      httpMethod: 'POST',
      resourcePath: '/directions/v2',
      path: '/prod/directions/v2/',
      stage: 'prod',
      requestTimeEpoch: Date.UTC(2026, 5, 15, 12),
      identity: { sourceIp: '127.0.0.1', userAgent: 'bench' },
      authorizer: { ...Object.fromEntries(Object.entries(context).map(([key, value]) => [key, String(value)])), principalId: `key:${keyId}` },
    },
    body: JSON.stringify({ coordinates: NEW_YORK_TRIPS[0]!.coordinates }),
    isBase64Encoded: false,
  };
}

async function coldStart(bundleFile: string, environment: Record<string, string>): Promise<ColdStart> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
    env: {
      PATH: process.env.PATH ?? '',
      ...environment,
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: 'spoke',
      BENCH_BUNDLE_URL: pathToFileURL(bundleFile).href,
      BENCH_EVENT: JSON.stringify(directionsEvent()),
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = output.split('\n').find((candidate) => candidate.startsWith('COLD_START '));
  if (code !== 0 || !line) throw new Error(`The bundle did not answer (exit ${code}):\n${output}`);
  return JSON.parse(line.slice('COLD_START '.length)) as ColdStart;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const ms = (values: readonly number[]) => `${percentile(values, 50).toFixed(0)} ms (${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)})`;

async function main(): Promise<void> {
  const runs = Number(option('runs', '5'));
  const outdir = option('keep', '') || (await mkdtemp(join(tmpdir(), 'spoke-bundle-')));
  console.error(`Synthesising into ${outdir}`);
  const sizes = await bundle(outdir);
  const directions = sizes.find((size) => size.name === 'directions')!;

  process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');
  const platform = await startLocalProcess({ env: { SPOKE_CITIES: 'new-york', SPOKE_GRAPH_DIR: process.env.SPOKE_GRAPH_DIR } });
  const starts: ColdStart[] = [];
  let loadAverage = loadavg()[0]!;
  try {
    const environment = functionEnvironment(platform.info.services);
    await coldStart(join(directions.directory, 'index.mjs'), environment); // fills the page cache, not counted
    loadAverage = await waitForQuiet(Number(option('quiet-below', '1')));
    for (let run = 0; run < runs; run++) {
      const start = await coldStart(join(directions.directory, 'index.mjs'), environment);
      if (start.status !== 200) throw new Error(`The first request answered ${start.status}`);
      starts.push(start);
    }
  } finally {
    await platform.stop();
  }

  const lines = [
    '## Directions: Lambda bundle and cold start',
    '',
    `Measured by \`npx tsx test/bench/lambda-bundle.ts\` on ${measuredOn()}: ${machineDescription()}; load average ${loadAverage.toFixed(2)} at the start. The bundles are what the stack's \`SpokeFunction\` construct builds (esbuild through \`NodejsFunction\`: ESM for node22, minified, source maps, the AWS SDK bundled), synthesised in a CDK app of their own; "zipped" is the asset directory under \`zip -9\`.`,
    '',
    '| Function | Entry | index.mjs | index.mjs.map | Zipped (what Lambda receives) |',
    '|---|---|---|---|---|',
    ...sizes.map((size) => `| ${size.name} | \`${size.entry}\` | ${kib(size.bundleBytes)} (${size.bundleBytes.toLocaleString('en')} B) | ${kib(size.sourceMapBytes)} | ${kib(size.zippedBytes)} (${size.zippedBytes.toLocaleString('en')} B) |`),
    '',
    `Cold start of the directions bundle, ${runs} fresh \`node\` processes (Node ${process.versions.node}; Lambda runs 22) with the function's environment against the local platform, \`NODE_OPTIONS=--enable-source-maps\` as the stack sets it; times on the process's own clock from its start, median (range):`,
    '',
    '| Process start to handler ready (module loaded) | to the first request answered (graph loaded from the local S3, New York 9.9 MB) | the second request (warm) |',
    '|---|---|---|',
    `| ${ms(starts.map((start) => start.readyMs))} | ${ms(starts.map((start) => start.firstAnswerMs))} | ${ms(starts.map((start) => start.secondAnswerMs))} |`,
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--write')) await replaceDocSection('lambda-bundle', lines);
}

await main();
