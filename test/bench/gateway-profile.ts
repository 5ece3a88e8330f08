/**
 * Where a directions request's time goes beyond the router, on the local platform:
 *
 *   npx tsx test/bench/gateway-profile.ts [--seconds 20] [--save <file>] [--cpu-profile <file>] [--write] [--from <saved file>]
 *
 * The platform runs in this process (lib/local/launch.ts, as `npm start` runs it, New York's
 * graph only, no bike-share polling), and beside its own gateway this script serves a second
 * gateway over the same handler modules, instrumented with public hooks only:
 *
 * - each request runs in an AsyncLocalStorage scope, so every timing below lands on its request;
 * - the authorizer's and the directions handler's invocations are timed around the `handler`
 *   exports (the gateway's module loader is injectable);
 * - every DynamoDB round trip is timed by an AWS SDK middleware on the shared client
 *   and on the rate limit's client that reuses its middleware (`platform/aws.ts`), by command;
 * - the router's own part (`planDirections` on the same trips, warm), the request's JSON parse and
 *   zod validation and the response's `JSON.stringify` are timed directly in the same process.
 *
 * wrk (test/bench/load.lua, the New York trips of load.ts, one API key) drives it: first one
 * request at a time, for the per-stage wall times, then 20 in flight under Node's CPU profiler
 * (`inspector`), whose samples are summed by where the code lives: CPU milliseconds per request
 * for each part of the platform. `--write` rewrites the load-profile section of
 * docs/benchmarks.md, with `test/bench/load-profile-baseline.json` (an earlier `--save`) as "before".
 */
import './scratch.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { graphOutputDir, sharedDataPath } from '../../lib/local/paths.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { createApiKey } from '../../functions/auth/api-keys.ts';
import { planDirections } from '../../functions/directions/directions.ts';
import { directionsRequest } from '../../functions/directions/request.ts';
import { dynamo, dynamoReusingMiddleware } from '../../platform/aws.ts';
import { ensureGraphs } from '../../graph-builder/index.ts';
import { createGateway } from '../../lib/local/gateway.ts';
import { useCityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { cityRouterEntry } from '../../platform/endpoints.ts';
import { inProcessCityInvoker } from '../../lib/local/city-routers.ts';
import { prepareLocalGraphs } from '../../lib/local/graphs.ts';
import { startLocalPlatform } from '../../lib/local/launch.ts';
import { listen } from '../../lib/local/servers.ts';
import { cpuPerRequest } from './cpu-parts.ts';
import { replaceDocSection, savedRun, measuredOn } from './doc-section.ts';
import { machineDescription, NEW_YORK_TRIPS, runWrk, waitForQuiet, writeTripBodies, wrkVersion } from './load.ts';
import { percentile } from './measure.ts';

interface RequestTimings {
  gateway: number;
  invocations: Record<string, number>;
  dynamo: { command: string; ms: number }[];
}

const AUTHORIZER = 'functions/authorizer/authorizer-handler.ts';
/** Where directions' handler runs: the city's routing function. */
const DIRECTIONS = cityRouterEntry;

export interface StageRow {
  stage: string;
  p50: number;
  mean: number;
}

export interface ProfileReport {
  date: string;
  commit: string;
  machine: string;
  seconds: number;
  sequential: { requests: number; requestsPerSecond: number; stages: StageRow[] };
  underLoad: { connections: number; requests: number; requestsPerSecond: number; p50Ms: number; p95Ms: number; loadAverage: number; cpu: { part: string; msPerRequest: number }[] };
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function gitCommit(): string {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).stdout.trim();
}

async function measure(): Promise<ProfileReport> {
  const tool = wrkVersion();
  const seconds = Number(option('seconds', '20'));
  process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');
  process.env.SPOKE_CITIES = 'new-york';
  await ensureGraphs({ cities: ['new-york'], dataPath: sharedDataPath(), outDir: graphOutputDir() });
  const stateDir = await mkdtemp(join(tmpdir(), 'spoke-profile-'));
  const platform = await startLocalPlatform({
    stateDir,
    ports: { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 },
    bikeShare: false,
    log: (line) => console.error(line),
  });
  try {
    await prepareLocalGraphs(['new-york'], () => undefined);
    const { key } = await createApiKey({ name: 'profile', plan: 'enterprise', limits: { perMinute: 1_000_000, perHour: 10_000_000, perDay: 100_000_000 } });

    const scope = new AsyncLocalStorage<RequestTimings>();
    const finished: RequestTimings[] = [];
    // Both DynamoDB clients: the rate limit's update goes through the one that reuses its middleware.
    const stacks = [dynamo().middlewareStack, dynamoReusingMiddleware().middlewareStack as unknown as ReturnType<typeof dynamo>['middlewareStack']];
    for (const stack of stacks) {
      stack.add(
        (next, context) => async (args) => {
          const timings = scope.getStore();
          const started = performance.now();
          try {
            return await next(args);
          } finally {
            timings?.dynamo.push({ command: String(context.commandName ?? 'unknown'), ms: performance.now() - started });
          }
        },
        { step: 'initialize', name: 'benchRoundTripTiming' },
      );
    }
    const load = async (entry: string) => {
      const module = (await import(pathToFileURL(join(projectRoot, entry)).href)) as { handler: (...args: unknown[]) => Promise<unknown> };
      return {
        handler: async (...args: unknown[]) => {
          const timings = scope.getStore();
          const started = performance.now();
          try {
            return await module.handler(...args);
          } finally {
            if (timings) timings.invocations[entry] = (timings.invocations[entry] ?? 0) + performance.now() - started;
          }
        },
      };
    };
    // The directions endpoint dispatches to New York's routing function: time that one through the same hooks.
    useCityInvoker(inProcessCityInvoker(load));
    const gateway = createGateway({ api: 'base', load, onError: (message, error) => console.error(message, error) });
    let inFlight = 0;
    const server = createServer((request, response) => {
      const timings: RequestTimings = { gateway: 0, invocations: {}, dynamo: [] };
      const started = performance.now();
      inFlight++;
      response.on('finish', () => {
        timings.gateway = performance.now() - started;
        finished.push(timings);
      });
      void scope.run(timings, () => gateway(request, response)).finally(() => inFlight--);
    });
    const port = await listen(server, { port: 0, host: '127.0.0.1', service: 'profiled gateway', envVar: '-' });
    const baseUrl = `http://127.0.0.1:${port}`;
    const bodies = await writeTripBodies();

    console.error(`${tool}; warming up`);
    await runWrk(baseUrl, 20, 10, [key], bodies);

    // One request at a time: the wall time of each stage.
    await waitForQuiet(Number(option('quiet-below', '1')));
    finished.length = 0;
    const sequentialRun = await runWrk(baseUrl, 1, seconds, [key], bodies);
    const sequential = finished.splice(0);
    const stages = sequentialStages(sequential, await directParts());

    // 20 in flight under the CPU profiler.
    const loadAverage = await waitForQuiet(Number(option('quiet-below', '1')));
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const loaded = await runWrk(baseUrl, 20, seconds, [key], bodies);
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const cpuProfile = option('cpu-profile', '');
    if (cpuProfile) await writeFile(cpuProfile, JSON.stringify(profile));
    const cpu = cpuPerRequest(profile, loaded.requests);

    const report: ProfileReport = {
      date: measuredOn(),
      commit: gitCommit(),
      machine: `${machineDescription()}, ${tool}`,
      seconds,
      sequential: { requests: sequentialRun.requests, requestsPerSecond: sequentialRun.requests / (sequentialRun.duration_us / 1e6), stages },
      underLoad: {
        connections: 20,
        requests: loaded.requests,
        requestsPerSecond: loaded.requests / (loaded.duration_us / 1e6),
        p50Ms: loaded.p50_us / 1000,
        p95Ms: loaded.p95_us / 1000,
        loadAverage,
        cpu,
      },
    };
    // wrk stops with requests still queued here: let them finish before the platform stops.
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    server.close();
    return report;
  } finally {
    await platform.stop();
  }
}

async function main(): Promise<void> {
  const saved = option('from', '');
  // --from only rewrites the section from a run saved earlier with --save.
  const report = saved ? (JSON.parse(await readFile(saved, 'utf8')) as ProfileReport) : await measure();
  const save = option('save', '');
  if (save) await writeFile(save, `${JSON.stringify(report, null, 2)}\n`);
  const before = await savedRun<ProfileReport>('load-profile-baseline.json');
  const section = profileSection(report, before);
  console.error(`\n${section.join('\n')}`);
  if (process.argv.includes('--write')) await replaceDocSection('load-profile', section);
}

/** The request's own parts, timed directly on the same trips in this process (warm): median per trip over rounds. */
async function directParts(rounds = 20): Promise<{ parse: number[]; plan: number[]; serialise: number[] }> {
  const parts = { parse: [] as number[], plan: [] as number[], serialise: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const trip of NEW_YORK_TRIPS) {
      const text = JSON.stringify({ coordinates: trip.coordinates });
      let started = performance.now();
      const request = directionsRequest.parse(JSON.parse(text));
      parts.parse.push(performance.now() - started);
      started = performance.now();
      const outcome = await planDirections(request);
      parts.plan.push(performance.now() - started);
      if (outcome.kind !== 'routed') throw new Error(`${trip.name} did not route`);
      started = performance.now();
      JSON.stringify(outcome.body);
      parts.serialise.push(performance.now() - started);
    }
  }
  return parts;
}

/** Per-stage wall times of sequential requests, with the parts timed directly beside them. */
function sequentialStages(requests: readonly RequestTimings[], direct: { parse: number[]; plan: number[]; serialise: number[] }): StageRow[] {
  const rows: StageRow[] = [];
  const add = (stage: string, values: readonly number[]) => rows.push({ stage, p50: percentile(values, 50), mean: mean(values) });
  const dynamoOf = (timings: RequestTimings, match: (command: string) => boolean) => sum(timings.dynamo.filter((call) => match(call.command)).map((call) => call.ms));
  const authorizer = requests.map((timings) => timings.invocations[AUTHORIZER] ?? 0);
  const handler = requests.map((timings) => timings.invocations[DIRECTIONS] ?? 0);
  const keyRead = requests.map((timings) => dynamoOf(timings, (command) => command === 'GetItemCommand'));
  const limiter = requests.map((timings) => dynamoOf(timings, (command) => command === 'UpdateItemCommand'));
  const otherDynamo = requests.map((timings) => dynamoOf(timings, (command) => command !== 'GetItemCommand' && command !== 'UpdateItemCommand'));
  const rest = handler.map((total, index) => total - limiter[index]! - otherDynamo[index]! - mean(direct.parse) - mean(direct.plan) - mean(direct.serialise));
  add('whole request, as the gateway saw it', requests.map((timings) => timings.gateway));
  add('local gateway itself (read, route, build events, answer)', requests.map((timings, index) => timings.gateway - authorizer[index]! - handler[index]!));
  add('authorizer invocation', authorizer);
  add('- API-key record read (DynamoDB GetItem)', keyRead);
  add('- the rest: middy, logging context, hash compare, policy', authorizer.map((total, index) => total - keyRead[index]!));
  add('directions handler invocation', handler);
  add('- rate-limit take (DynamoDB UpdateItem)', limiter);
  add('- other DynamoDB calls (report overlay refresh, every 20 s)', otherDynamo);
  add('- request JSON parse and zod validation (timed directly)', direct.parse);
  add('- routing: planDirections (timed directly)', direct.plan);
  add('- response JSON.stringify (timed directly)', direct.serialise);
  add('- the rest: middy chain, logging, headers (by difference)', rest);
  add('DynamoDB round trips per request (count)', requests.map((timings) => timings.dynamo.length));
  return rows;
}

const ms = (value: number) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));

export function profileSection(after: ProfileReport, before: ProfileReport | null): string[] {
  const lines = [
    '## Load: where a directions request\'s time goes',
    '',
    `Measured by \`npx tsx test/bench/gateway-profile.ts\` on ${after.date}${after.commit ? ` (commit ${after.commit})` : ''}: ${after.machine}. The local platform in one process (New York only, no bike-share polling) with a second gateway over the same handler modules, timed through public hooks: an AsyncLocalStorage scope per request, timers around the authorizer's and the handler's \`handler\` exports, an AWS SDK middleware on the shared DynamoDB client. Routing, JSON and zod are timed directly on the same ${NEW_YORK_TRIPS.length} trips. wrk sends the trips of the load test on one key, ${after.seconds} s per part.`,
    '',
    `One request at a time (${after.sequential.requests.toLocaleString('en')} requests, ${after.sequential.requestsPerSecond.toFixed(1)} per second), wall milliseconds per request${before ? ', before and after' : ''}:`,
    '',
  ];
  const beforeStage = new Map(before?.sequential.stages.map((row) => [row.stage, row]) ?? []);
  if (before) {
    lines.push('| Stage | p50 before | mean before | p50 after | mean after |', '|---|---|---|---|---|');
    for (const row of after.sequential.stages) {
      const earlier = beforeStage.get(row.stage);
      lines.push(`| ${row.stage} | ${earlier ? ms(earlier.p50) : '-'} | ${earlier ? ms(earlier.mean) : '-'} | ${ms(row.p50)} | ${ms(row.mean)} |`);
    }
    for (const row of before.sequential.stages) {
      if (!after.sequential.stages.some((candidate) => candidate.stage === row.stage)) lines.push(`| ${row.stage} | ${ms(row.p50)} | ${ms(row.mean)} | - | - |`);
    }
  } else {
    lines.push('| Stage | p50 | mean |', '|---|---|---|');
    for (const row of after.sequential.stages) lines.push(`| ${row.stage} | ${ms(row.p50)} | ${ms(row.mean)} |`);
  }
  const load = after.underLoad;
  lines.push(
    '',
    `${load.connections} in flight under Node's CPU profiler (${load.requests.toLocaleString('en')} requests, ${load.requestsPerSecond.toFixed(1)} per second, p50 ${load.p50Ms.toFixed(0)} ms, p95 ${load.p95Ms.toFixed(0)} ms; load average ${load.loadAverage.toFixed(2)} at the start): CPU milliseconds of the platform process per request, by where the code lives (a builtin counts for its caller, except JSON's). The process runs dynalite and s3rver too, so the DynamoDB rows are the local stand-in's cost, which AWS pays on its side.`,
    '',
  );
  const beforeCpu = new Map(before?.underLoad.cpu.map((row) => [row.part, row.msPerRequest]) ?? []);
  const parts = [...new Set([...load.cpu.map((row) => row.part), ...beforeCpu.keys()])];
  const afterCpu = new Map(load.cpu.map((row) => [row.part, row.msPerRequest]));
  const cell = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2));
  if (before) {
    lines.push(`| Part | before (${before.underLoad.requestsPerSecond.toFixed(1)} req/s) | after (${load.requestsPerSecond.toFixed(1)} req/s) |`, '|---|---|---|');
    for (const part of parts) lines.push(`| ${part} | ${cell(beforeCpu.get(part))} | ${cell(afterCpu.get(part))} |`);
    lines.push(`| **total** | **${sum([...beforeCpu.values()]).toFixed(2)}** | **${sum([...afterCpu.values()]).toFixed(2)}** |`);
  } else {
    lines.push('| Part | CPU ms per request |', '|---|---|');
    for (const part of parts) lines.push(`| ${part} | ${cell(afterCpu.get(part))} |`);
    lines.push(`| **total** | **${sum([...afterCpu.values()]).toFixed(2)}** |`);
  }
  return lines;
}

await main();
