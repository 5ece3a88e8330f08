/**
 * How long a heavy route request within the compute budget delays a simple one sent while it
 * runs, through the local platform's gateway (every handler in one Node process, as `npm start`
 * runs it). Per round: the heavy request (explain-supersafe with `avoid_hills` through 25 New
 * York coordinates, each 0.3 to 1.2 km from the last: the heaviest planning the budget bench
 * measures) is sent, and a simple London route `--gap` ms later; the delay is the simple route's
 * time less its median time alone, measured in the same run between the rounds.
 *
 * Usage: npx tsx test/bench/concurrent-delay.ts [--rounds 15] [--gap 100]
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { parseArgs, promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../../lib/project-root.ts';
import { startLocalProcess, type RunningLocalProcess } from '../support/local-process.ts';
import { realGraph } from '../routing/real-graphs.ts';
import { seededRequests } from './budget.ts';
import { percentile } from './measure.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, gap: { type: 'string', default: '100' }, placements: { type: 'string', default: 'threads' } },
});
const rounds = Number(values.rounds);
const gap = Number(values.gap);
const placements = values.placements.split(',').map((placement) => placement.trim());

const SIMPLE = { coordinates: [[-0.1337, 51.5246], [-0.1246, 51.5219]], departure_time: '2026-06-15T08:30' };
const heavyBodies = seededRequests(realGraph('new-york'), 'errands', rounds + 2, 341).map((coordinates) => ({ coordinates, avoid_hills: true, departure_time: '2026-06-15T08:30' }));

const run = promisify(execFile);
const loadAverage = () => loadavg().map((value) => value.toFixed(2)).join(' / ');
/** The process's resident memory now, in MB (Linux only; null elsewhere). */
const residentMb = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
};

interface Platform {
  placement: string;
  running: RunningLocalProcess;
  post(path: string, body: unknown): Promise<{ status: number; milliseconds: number; code: string | null }>;
  alone: number[];
  heavy: number[];
  together: number[];
  refused: string[];
}

async function startPlatform(placement: string): Promise<Platform> {
  const running = await startLocalProcess({ env: { SPOKE_CITY_ROUTERS: placement } });
  // Through the admin tool, as its operator would: this process's AWS clients keep the first platform's endpoints.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'keys', 'create', '--name', 'concurrent delay', '--plan', 'enterprise', '--per-minute', '100000', '--per-hour', '1000000', '--per-day', '10000000'], {
    cwd: projectRoot,
    env: { ...process.env, SPOKE_STATE_DIR: running.info.state_dir },
  });
  const key = stdout.trim().split('\n').at(-1)!;
  const post = async (path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${running.info.base_url}${path}`, { method: 'POST', headers: { apikey: key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, milliseconds: performance.now() - started, code: response.status === 200 ? null : (JSON.parse(text) as { code?: string }).code ?? null };
  };
  // Warm both cities' graphs and the code: the simple routes two at a time, since one alone runs in
  // the platform's own thread (lib/local/city-routers.ts) and the other then goes to London's.
  for (const body of heavyBodies.slice(0, 2)) await post('/explain-supersafe/', body);
  for (let index = 0; index < 5; index++) await Promise.all([post('/directions/v2/', SIMPLE), post('/directions/v2/', SIMPLE)]);
  return { placement, running, post, alone: [], heavy: [], together: [], refused: [] };
}

async function round(platform: Platform, body: unknown): Promise<void> {
  const { post } = platform;
  for (let index = 0; index < 3; index++) platform.alone.push((await post('/directions/v2/', SIMPLE)).milliseconds);
  const heavyAnswer = post('/explain-supersafe/', body);
  await sleep(gap);
  const simple = await post('/directions/v2/', SIMPLE);
  const answered = await heavyAnswer;
  if (answered.status !== 200) platform.refused.push(`${answered.status} ${answered.code}`);
  platform.heavy.push(answered.milliseconds);
  platform.together.push(simple.milliseconds);
}

async function report(platform: Platform): Promise<void> {
  const { alone, heavy, together, refused } = platform;
  const aloneMedian = percentile(alone, 50);
  const delays = together.map((milliseconds) => milliseconds - aloneMedian);
  const resident = await residentMb(platform.running.info.pid);
  console.log(`${platform.placement}:`);
  console.log(`  simple route alone: p50 ${aloneMedian.toFixed(1)} ms, p95 ${percentile(alone, 95).toFixed(1)} ms`);
  console.log(`  heavy request: p50 ${percentile(heavy, 50).toFixed(1)} ms, p95 ${percentile(heavy, 95).toFixed(1)} ms, max ${Math.max(...heavy).toFixed(1)} ms${refused.length ? `; refused: ${refused.join(', ')}` : ''}`);
  console.log(`  simple route sent meanwhile: p50 ${percentile(together, 50).toFixed(1)} ms, p95 ${percentile(together, 95).toFixed(1)} ms`);
  console.log(`  delay: p50 ${percentile(delays, 50).toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`);
  console.log(`  platform process resident: ${resident === null ? 'unknown' : `${resident.toFixed(0)} MB`}; output ${platform.running.outputFile}, log lines ${platform.running.logFile}`);
}

const platforms: Platform[] = [];
try {
  for (const placement of placements) platforms.push(await startPlatform(placement));
  console.log(`${cpus().length} cores, Node ${process.versions.node}, load average ${loadAverage()} at the start; ${rounds} rounds, simple route sent ${gap} ms after the heavy one`);
  for (const body of heavyBodies.slice(2)) {
    for (const platform of platforms) await round(platform, body);
  }
  console.log(`load average ${loadAverage()} at the end`);
  for (const platform of platforms) await report(platform);
} finally {
  for (const platform of platforms) await platform.running.stop();
}
