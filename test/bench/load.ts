/**
 * Load test of `POST /directions/v2/` on the local platform: requests per second, p50 / p95 /
 * p99 and every status, at 1, 20 and 50 requests in flight, all on one API key (a partner app
 * sending all its traffic on its key) and spread over 20 keys, for comparison.
 *
 *   npx tsx test/bench/load.ts [--duration 20] [--warmup 10] [--connections 1,20,50] [--quiet-below 1]
 *                              [--cpu-prof <folder>] [--write] [--save <file>] [--from <saved file>]
 *
 * It starts the local platform as `npm start` does (test/support/local-process.ts: every port
 * free, a fresh state folder, the graphs of `SPOKE_GRAPH_DIR` or `.local-data/graphs`, built when
 * missing), creates enterprise keys with limits no run can reach (so any 429 is a wrong one),
 * checks that every coordinate pair below answers a route, warms the platform up, then drives it,
 * each row once the 1-minute load average is below `--quiet-below` (at most 3 minutes' wait), with wrk (Debian: `apt-get install wrk`) and `test/bench/load.lua`. `--write` rewrites the load
 * section of docs/benchmarks.md, with the figures of `test/bench/load-baseline.json` (an earlier
 * run saved with `--save`) beside them as "before"; `--from` rewrites the section from a saved run
 * without measuring. Run it on an otherwise idle machine: the
 * platform, dynalite, s3rver and wrk share its cores. `--cpu-prof <folder>` starts the platform
 * under `node --cpu-prof` with the cities' routing functions in its own thread
 * (`SPOKE_CITY_ROUTERS=in-process`, so one profile holds the whole request path; a worker thread
 * is not profiled) and adds each row's CPU milliseconds per request by part of the platform
 * (test/bench/cpu-parts.ts), from the samples taken while the row ran.
 */
import './scratch.ts';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { graphOutputDir, sharedDataPath } from '../../lib/local/paths.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { createApiKey } from '../../functions/auth/api-keys.ts';
import { ensureGraphs } from '../../graph-builder/index.ts';
import { functionEnvironment } from '../../lib/local/provision.ts';
import { startLocalProcess, type RunningLocalProcess } from '../support/local-process.ts';
import { cpuPerRequest, mainThreadProfile, type PartCpu, type ProfileWindow } from './cpu-parts.ts';
import { replaceDocSection, savedRun, measuredOn } from './doc-section.ts';

/** Real places in the New York extract (Lower Manhattan to Midtown, Downtown Brooklyn), 0.5 to 4 km apart. */
export const NEW_YORK_TRIPS: readonly { name: string; coordinates: [[number, number], [number, number]] }[] = [
  { name: 'City Hall to Brooklyn Borough Hall', coordinates: [[-74.006, 40.7128], [-73.9899, 40.6955]] },
  { name: 'Washington Square to Union Square', coordinates: [[-73.9973, 40.7308], [-73.9903, 40.7359]] },
  { name: 'Battery Park to the World Trade Center', coordinates: [[-74.017, 40.7033], [-74.0134, 40.7127]] },
  { name: 'Chelsea Market to Madison Square Park', coordinates: [[-74.006, 40.7424], [-73.9877, 40.742]] },
  { name: 'Grand Central to the Empire State Building', coordinates: [[-73.9772, 40.7527], [-73.9857, 40.7484]] },
  { name: 'Times Square to Bryant Park', coordinates: [[-73.9855, 40.758], [-73.9832, 40.7536]] },
  { name: 'Tompkins Square Park to Washington Square', coordinates: [[-73.9817, 40.7265], [-73.9973, 40.7308]] },
  { name: 'Brooklyn Bridge Park to Brooklyn Borough Hall', coordinates: [[-73.9969, 40.7022], [-73.9899, 40.6955]] },
  { name: 'Penn Station to Union Square', coordinates: [[-73.9935, 40.7506], [-73.9903, 40.7359]] },
  { name: 'Brooklyn Heights Promenade to DUMBO', coordinates: [[-73.9966, 40.697], [-73.9887, 40.7033]] },
  { name: 'SoHo to Chinatown', coordinates: [[-74.0008, 40.7246], [-73.9973, 40.7158]] },
  { name: 'Pier 25 to Battery Park', coordinates: [[-74.0137, 40.7204], [-74.017, 40.7033]] },
  { name: 'Flatiron to Grand Central', coordinates: [[-73.9897, 40.7411], [-73.9772, 40.7527]] },
  { name: 'Brooklyn Borough Hall to Chinatown', coordinates: [[-73.9899, 40.6955], [-73.9973, 40.7158]] },
  { name: 'Lower East Side to East Village', coordinates: [[-73.9885, 40.715], [-73.984, 40.7265]] },
  { name: 'Greenwich Village to the Meatpacking District', coordinates: [[-74.004, 40.7336], [-74.0071, 40.7409]] },
  { name: 'Hudson Yards to Bryant Park', coordinates: [[-74.0018, 40.7536], [-73.9832, 40.7536]] },
  { name: 'Stuyvesant Town to City Hall', coordinates: [[-73.9776, 40.7316], [-74.006, 40.7128]] },
  { name: 'Seward Park to the Williamsburg Bridge', coordinates: [[-73.9895, 40.7144], [-73.987, 40.7183]] },
  { name: 'Union Square to the Flatiron', coordinates: [[-73.9903, 40.7359], [-73.9897, 40.7411]] },
];

const KEY_COUNT_SPREAD = 20;
/** Far above anything a run sends, so every 429 would be a wrong one. */
const UNREACHABLE_LIMITS = { perMinute: 1_000_000, perHour: 10_000_000, perDay: 100_000_000 };

export interface LoadRun {
  keys: number;
  connections: number;
  loadAverage: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  socketErrors: number;
  /** The platform process's CPU time (user and system, every thread) per request while the row ran; null where /proc is not there to read. */
  platformCpuMsPerRequest?: number | null;
  /** With `--cpu-prof`: that CPU time per request by part, in the shares of the profile's samples taken while the row ran. */
  cpu?: PartCpu[];
}

export interface LoadReport {
  date: string;
  commit: string;
  machine: string;
  durationSeconds: number;
  /** Each row waited for the 1-minute load average to fall below this. */
  quietBelow: number;
  /** Where the cities' routing functions ran: worker threads (as `npm start`), or in the platform's thread under `--cpu-prof`. */
  cityRouters?: 'threads' | 'in-process';
  runs: LoadRun[];
}

interface WrkResult {
  requests: number;
  duration_us: number;
  p50_us: number;
  p95_us: number;
  p99_us: number;
  max_us: number;
  statuses: Record<string, number>;
  errors: { connect: number; read: number; write: number; timeout: number };
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

export function wrkVersion(): string {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error) throw new Error('wrk is not installed: apt-get install wrk (Debian), or your system\'s wrk package');
  return (probe.stdout + probe.stderr).split('\n')[0]!.replace(/ Copyright.*/, '').trim();
}

export async function runWrk(baseUrl: string, connections: number, seconds: number, keys: readonly string[], bodiesFile: string): Promise<WrkResult> {
  const threads = String(Math.min(2, connections));
  const args = ['-t', threads, '-c', String(connections), '-d', `${seconds}s`, '--timeout', '30s', '-s', join(projectRoot, 'test/bench/load.lua'), baseUrl];
  const child = spawn('wrk', args, { env: { ...process.env, SPOKE_LOAD_BODIES: bodiesFile, SPOKE_LOAD_KEYS: keys.join(',') } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = output.split('\n').find((candidate) => candidate.startsWith('LOAD_RESULT '));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${output}`);
  return JSON.parse(line.slice('LOAD_RESULT '.length)) as WrkResult;
}

/** The trips as request bodies, one a line, for load.lua. */
export async function writeTripBodies(): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'spoke-load-')), 'bodies.jsonl');
  await writeFile(file, NEW_YORK_TRIPS.map((trip) => JSON.stringify({ coordinates: trip.coordinates })).join('\n') + '\n');
  return file;
}

async function checkTrips(baseUrl: string, key: string): Promise<void> {
  const failing: string[] = [];
  for (const trip of NEW_YORK_TRIPS) {
    const response = await fetch(`${baseUrl}/directions/v2/`, {
      method: 'POST',
      headers: { apikey: key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ coordinates: trip.coordinates }),
    });
    const body = (await response.json()) as { route?: unknown };
    if (response.status !== 200 || !body.route) failing.push(`${trip.name} (${response.status})`);
  }
  if (failing.length) throw new Error(`These trips do not route; fix them before measuring: ${failing.join(', ')}`);
}

function gitCommit(): string {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' });
  return result.stdout.trim() || 'unknown';
}

/**
 * Waits until the 1-minute load average is below `threshold` (at most `maxSeconds`), so each row
 * starts from a quiet machine rather than from the tail of the previous one; returns the load then.
 */
export async function waitForQuiet(threshold: number, maxSeconds = 180): Promise<number> {
  const deadline = performance.now() + maxSeconds * 1000;
  while (loadavg()[0]! >= threshold && performance.now() < deadline) await sleep(5000);
  return loadavg()[0]!;
}

export function machineDescription(): string {
  return `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
}

interface MeasureOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connectionCounts: number[];
  quietBelow: number;
  tool: string;
  /** Where `node --cpu-prof` writes the platform's profile; null: not profiled. */
  cpuProfileDir: string | null;
}

/** The monotonic clock in microseconds, as a CPU profile's timestamps read it. */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Linux's clock ticks per second, in which /proc/<pid>/stat counts CPU time (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's CPU time so far (user and system, all its threads) in milliseconds, from
 * /proc/<pid>/stat; null where there is none. Unlike a profile's samples, which are wall-clock
 * intervals, it does not grow while other work on the machine holds the cores.
 */
async function processCpuMs(pid: number | undefined): Promise<number | null> {
  if (!pid) return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

async function measure({ durationSeconds, warmupSeconds, connectionCounts, quietBelow, tool, cpuProfileDir }: MeasureOptions): Promise<LoadReport> {
  process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');
  await ensureGraphs({ dataPath: sharedDataPath(), outDir: graphOutputDir(), log: (line) => console.log(`[graphs] ${line}`) });
  const cityRouters = cpuProfileDir ? 'in-process' : 'threads';
  let platform: RunningLocalProcess | undefined;
  const runs: LoadRun[] = [];
  const windows: ProfileWindow[] = [];
  try {
    platform = await startLocalProcess({
      env: { SPOKE_CITY_ROUTERS: cityRouters },
      nodeArgs: cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir] : [],
    });
    const baseUrl = platform.info.base_url;
    Object.assign(process.env, functionEnvironment(platform.info.services));
    const keys: string[] = [];
    for (let index = 0; index < KEY_COUNT_SPREAD; index++) {
      keys.push((await createApiKey({ name: `load ${index + 1}`, plan: 'enterprise', limits: UNREACHABLE_LIMITS })).key);
    }
    await checkTrips(baseUrl, keys[0]!);
    const bodiesFile = await writeTripBodies();

    console.log(`${tool}; warming up for ${warmupSeconds} s at 20 in flight`);
    await runWrk(baseUrl, 20, warmupSeconds, keys, bodiesFile);

    for (const connections of connectionCounts) {
      for (const keyCount of [1, KEY_COUNT_SPREAD]) {
        const loadAverage = await waitForQuiet(quietBelow);
        const fromUs = monotonicUs();
        const cpuBefore = await processCpuMs(platform.child.pid);
        const result = await runWrk(baseUrl, connections, durationSeconds, keys.slice(0, keyCount), bodiesFile);
        const cpuAfter = await processCpuMs(platform.child.pid);
        windows.push({ fromUs, toUs: monotonicUs() });
        const run = loadRun(result, keyCount, connections, loadAverage);
        run.platformCpuMsPerRequest = cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / Math.max(1, run.requests) : null;
        runs.push(run);
        console.log(`${connections} in flight, ${keyCount} key(s): ${run.requestsPerSecond.toFixed(1)} req/s, p50 ${run.p50Ms.toFixed(0)} ms, p95 ${run.p95Ms.toFixed(0)} ms, statuses ${JSON.stringify(run.statuses)}, socket errors ${run.socketErrors}, platform CPU ${run.platformCpuMsPerRequest?.toFixed(2) ?? '-'} ms a request (load ${loadAverage.toFixed(2)})`);
      }
    }
  } finally {
    // The profile is written as the platform exits.
    await platform?.stop();
  }
  if (cpuProfileDir) await addCpu(runs, windows, cpuProfileDir);
  return { date: measuredOn(), commit: gitCommit(), machine: `${machineDescription()}, ${tool}`, durationSeconds, quietBelow, cityRouters, runs };
}

function loadRun(result: WrkResult, keys: number, connections: number, loadAverage: number): LoadRun {
  const seconds = result.duration_us / 1e6;
  return {
    keys,
    connections,
    loadAverage,
    requests: result.requests,
    seconds,
    requestsPerSecond: result.requests / seconds,
    p50Ms: result.p50_us / 1000,
    p95Ms: result.p95_us / 1000,
    p99Ms: result.p99_us / 1000,
    maxMs: result.max_us / 1000,
    statuses: result.statuses,
    socketErrors: result.errors.connect + result.errors.read + result.errors.write + result.errors.timeout,
  };
}

/** Each row's CPU per request by part, from the samples of the platform's profile taken while it ran. */
async function addCpu(runs: LoadRun[], windows: readonly ProfileWindow[], folder: string): Promise<void> {
  const profile = await mainThreadProfile(folder);
  runs.forEach((run, index) => {
    const sampled = cpuPerRequest(profile, run.requests, windows[index]!);
    const sampledTotal = sampled.reduce((total, part) => total + part.msPerRequest, 0);
    // The samples give each part's share; the process's CPU time, where known, gives the total.
    const scale = run.platformCpuMsPerRequest ? run.platformCpuMsPerRequest / sampledTotal : 1;
    run.cpu = sampled.map((part) => ({ part: part.part, msPerRequest: part.msPerRequest * scale }));
    console.log(`${run.connections} in flight, ${run.keys} key(s): profile samples ${sampledTotal.toFixed(2)} ms a request, CPU time ${run.platformCpuMsPerRequest?.toFixed(2) ?? '-'}`);
  });
}

const nonOk = (run: LoadRun): string => {
  const others = Object.entries(run.statuses).filter(([status]) => status !== '200');
  const parts = others.map(([status, count]) => `${count} × ${status}`);
  if (run.socketErrors) parts.push(`${run.socketErrors} socket errors`);
  return parts.length ? parts.join(', ') : '0';
};

const row = (run: LoadRun): string[] => [
  String(run.connections),
  run.keys === 1 ? 'one key' : `${run.keys} keys`,
  run.requestsPerSecond.toFixed(1),
  run.p50Ms.toFixed(0),
  run.p95Ms.toFixed(0),
  run.p99Ms.toFixed(0),
  `${run.requests.toLocaleString('en')}`,
  nonOk(run),
  run.loadAverage.toFixed(2),
];

function table(report: LoadReport): string[] {
  const header = ['In flight', 'Keys', 'Requests/s', 'p50 ms', 'p95 ms', 'p99 ms', 'Requests', 'Not 200', 'Load average at start'];
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...report.runs.map((run) => `| ${row(run).join(' | ')} |`)];
}

/** How the rows waited for a quiet machine; `--quiet-below` above the core count waits for nothing. */
function quietness(report: LoadReport): string {
  if (report.quietBelow > cpus().length) return `No row waited for a quiet machine (\`--quiet-below ${report.quietBelow}\`: other work held the cores throughout); each records the 1-minute load average as it started.`;
  return `Each row waited for the 1-minute load average to fall below ${report.quietBelow} (the platform idle, the previous row's load decayed, at most 3 minutes) and records it as it started.`;
}

export function loadSection(after: LoadReport, before: LoadReport | null): string[] {
  const lines = [
    '## Load: directions on one API key',
    '',
    `Measured by \`npx tsx test/bench/load.ts\` on ${after.date} (commit ${after.commit}): ${after.machine}. The local platform as \`npm start\` runs it (one Node process serving every function, each city's routing function in a worker thread of its own, with dynalite and s3rver in it, on free ports), driven by wrk over loopback on the same two cores, \`test/bench/load.lua\` sending \`POST /directions/v2/\` with ${NEW_YORK_TRIPS.length} fixed New York trips in turn (\`NEW_YORK_TRIPS\` in \`test/bench/load.ts\`), ${after.durationSeconds} s per row after a warm-up. Keys are enterprise keys with limits no run reaches, so any 429 would be wrong; "Not 200" counts every other answer and socket error. ${quietness(after)}`,
    '',
    ...table(after),
  ];
  if (before) {
    lines.push('', `Before (commit ${before.commit}, ${before.date}, same script and machine):`, '', ...table(before));
  }
  return lines;
}

/** The whole run (options from the command line); also `BENCH_SECTIONS=load npm run bench`. */
export async function loadBenchmark(write = process.argv.includes('--write')): Promise<void> {
  const saved = option('from', '');
  let report: LoadReport;
  if (saved) {
    // Only rewrite the section from a run saved earlier with --save.
    report = JSON.parse(await readFile(saved, 'utf8')) as LoadReport;
  } else {
    const tool = wrkVersion();
    const durationSeconds = Number(option('duration', '20'));
    const warmupSeconds = Number(option('warmup', '10'));
    const connectionCounts = option('connections', '1,20,50').split(',').map(Number);
    const quietBelow = Number(option('quiet-below', '1'));
    const profileRoot = option('cpu-prof', '') ? resolve(option('cpu-prof', '')) : null;
    // A folder of the run's own under the one named, so the platform's profile is the only one in it.
    const cpuProfileDir = profileRoot ? await mkdir(profileRoot, { recursive: true }).then(() => mkdtemp(join(profileRoot, 'run-'))) : null;
    if (cpuProfileDir) console.log(`The platform's CPU profile goes to ${cpuProfileDir}`);
    report = await measure({ durationSeconds, warmupSeconds, connectionCounts, quietBelow, tool, cpuProfileDir });
  }
  const save = option('save', '');
  if (save) await writeFile(save, `${JSON.stringify(report, null, 2)}\n`);
  // A profiled run (--cpu-prof) is the request path's CPU section; any other the load section.
  const profiled = report.runs.some((run) => run.cpu);
  const before = await savedRun<LoadReport>(profiled ? 'load-request-path-baseline.json' : 'load-baseline.json');
  const section = profiled ? requestPathSection(report, before) : loadSection(report, before);
  console.log(`\n${section.join('\n')}`);
  if (write) await replaceDocSection(profiled ? 'load-request-path' : 'load', section);
}

/** The profiled run's CPU per request by part, before and after, for the one-key row at the fewest in flight. */
export function requestPathSection(after: LoadReport, before: LoadReport | null): string[] {
  const rowOf = (report: LoadReport | null) => report?.runs.filter((run) => run.keys === 1 && run.cpu).sort((a, b) => a.connections - b.connections)[0];
  const afterRow = rowOf(after);
  if (!afterRow?.cpu) throw new Error('The run has no profiled one-key row (run it with --cpu-prof)');
  const beforeRow = rowOf(before);
  const cpuOf = (run: LoadRun | undefined) => new Map(run?.cpu?.map((part) => [part.part, part.msPerRequest]) ?? []);
  const [beforeCpu, afterCpu] = [cpuOf(beforeRow), cpuOf(afterRow)];
  const parts = [...new Set([...afterCpu.keys(), ...beforeCpu.keys()])].sort((a, b) => (afterCpu.get(b) ?? 0) - (afterCpu.get(a) ?? 0));
  const cell = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2));
  const heading = (label: string, run: LoadRun, report: LoadReport) => `${label} (commit ${report.commit}, ${run.requestsPerSecond.toFixed(1)} req/s, load ${run.loadAverage.toFixed(2)})`;
  const columns = beforeRow && before ? [heading('before', beforeRow, before), heading('after', afterRow, after)] : [heading('CPU ms per request', afterRow, after)];
  const lines = [
    '## Load: CPU per request around the planner',
    '',
    `Measured by \`npx tsx test/bench/load.ts --connections ${afterRow.connections} --cpu-prof /tmp/spoke-load-profile --write\` on ${after.date} (commit ${after.commit}): ${after.machine}. The load test's platform and trips, ${afterRow.connections} in flight on one key for ${after.durationSeconds} s, with the platform process under \`node --cpu-prof\` and the cities' routing functions in its own thread (\`SPOKE_CITY_ROUTERS=in-process\`, so that one profile holds the whole path; one request at a time the default placement runs these short trips there too, lib/local/city-routers.ts). Each figure is the platform process's CPU time while the row ran (user and system, every thread, from /proc) per request, divided among the parts by the profile's samples of the same span, by where the code lives (\`test/bench/cpu-parts.ts\`; a builtin counts for its caller). The dynalite rows are the local stand-in's cost, which AWS pays on its side; "Node HTTP" is the gateway's and the DynamoDB endpoint's sockets on one side and the SDK's on the other.${before ? ` "Before" is the same command on commit ${before.commit}, saved in \`test/bench/load-request-path-baseline.json\`.` : ''}`,
    '',
    `| Part | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
  ];
  for (const part of parts) lines.push(`| ${part} | ${(beforeRow ? [beforeCpu.get(part), afterCpu.get(part)] : [afterCpu.get(part)]).map(cell).join(' | ')} |`);
  const total = (cpu: Map<string, number>) => [...cpu.values()].reduce((sum, value) => sum + value, 0).toFixed(2);
  lines.push(`| **total** | ${(beforeRow ? [total(beforeCpu), total(afterCpu)] : [total(afterCpu)]).map((value) => `**${value}**`).join(' | ')} |`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await loadBenchmark();
