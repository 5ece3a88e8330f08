/**
 * Two routers side by side on the metro benchmark's network, in one process: this checkout's on
 * its own metro build, and another checkout's (an earlier commit, say) on that checkout's build.
 * (Run twice, below.)
 * Chunks of 25 of the metro section's pairs (test/bench/metro.ts: the same seeds, closures and
 * departure) go to each router in turn, the order alternating per chunk, over two rounds, so a
 * machine whose speed drifts within minutes (docs/benchmarks.md says how much) weighs on both
 * alike. Prints CPU p50 / p95 / p99, states settled, and the median of the per-query CPU ratio.
 *
 * Of two copies of one graph in one process, the copy read first routes about a quarter slower
 * (a checkout against itself: median per-query ratio 0.69, and 1.33 with the reads swapped; it
 * follows the order of reading the graph buffers, not the code or the order of loading routers). So each costing is measured twice, each time in a process
 * of its own, reading the other checkout's graph first and then this one's first; the figures pool
 * both, and the ratio given is the geometric mean of the two processes' medians, in which that
 * placement cancels.
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   (cd /tmp/before && BENCH_METRO_DIR=/tmp/metro-before BENCH_SECTIONS=metro BENCH_WRITE_DOCS=0 npm run bench)
 *   BENCH_METRO_DIR=/tmp/metro-after BENCH_SECTIONS=metro BENCH_WRITE_DOCS=0 npm run bench
 *   npx tsx test/bench/metro-compare.ts /tmp/before /tmp/metro-before /tmp/metro-after [costing ...]
 *
 * Costings: direct, supersafe, walking (default all three), night-supersafe and night-direct
 * (22:30, dark, as the metro section's night rows). Each build folder is a metro work
 * folder as BENCH_METRO_DIR keeps it (its cities/new-york/current.json names the graph).
 */
import './scratch.ts';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { projectRoot } from '../../lib/project-root.ts';
import { percentile } from './measure.ts';

const CHUNK = 25;
const ROUNDS = 2;
const WARM_UP = 50;

type Pair = [number, number];
interface Router {
  pairs: Pair[];
  run(chunk: readonly Pair[], warmUp: number): { cpu: number[]; settled: number[] };
}

/** The graph a metro work folder holds. */
function metroGraph(folder: string): Buffer {
  const pointer = JSON.parse(readFileSync(join(folder, 'cities', 'new-york', 'current.json'), 'utf8')) as { key: string };
  return readFileSync(join(folder, pointer.key));
}

/** A checkout's router on a graph, with the metro section's pairs, closures and departure. */
async function routerOf(checkout: string, graph: Buffer, costingLabel: string): Promise<Router> {
  const load = (path: string) => import(pathToFileURL(join(checkout, path)).href);
  const measure = await load('test/bench/measure.ts');
  const { createCosting } = await load('core/routing/costing/create-costing.ts');
  const { buildOverlay } = await load('functions/graphs/report-overlay.ts');
  const { seededReports } = await load('test/bench/routino.ts');
  const { localMinutes } = await load('core/local-time.ts');
  const { loaded } = measure.loadMeasured('new-york', graph);
  const { network } = loaded;
  // As test/bench/metro.ts draws them.
  const pairs: Pair[] = measure.randomPairs(network, 500, 2000, 30_000, 3434, measure.cyclingNodes(network));
  const { overlay } = buildOverlay(loaded, seededReports(loaded, 60, 4343, ['closed']));
  const night = costingLabel.startsWith('night-');
  const departureMinute = night ? localMinutes(2026, 6, 15, 22, 30) : localMinutes(2026, 6, 15, 8, 30);
  const walking = costingLabel === 'walking';
  const supersafe = costingLabel.endsWith('supersafe');
  const costing = createCosting(network, { profile: walking ? 'walking' : 'cycling', supersafe, night, departureMinute }, walking ? null : overlay);
  return {
    pairs,
    run: (chunk, warmUp) => measure.measureCosting(loaded, chunk, costing, { guidance: false, warmUpPairs: warmUp }),
  };
}

type Side = 'before' | 'after';
type Measured = Record<Side, { cpu: number[]; settled: number[] }>;
const SIDES: readonly Side[] = ['before', 'after'];

/** One costing's routes on both routers, in this process, reading `readFirst`'s graph first. */
async function measureBoth(other: string, builds: Record<Side, string>, costingLabel: string, readFirst: Side): Promise<Measured> {
  const graphs = {} as Record<Side, Buffer>;
  for (const side of readFirst === 'before' ? SIDES : [...SIDES].reverse()) graphs[side] = metroGraph(builds[side]);
  const before = await routerOf(other, graphs.before, costingLabel);
  const after = await routerOf(projectRoot, graphs.after, costingLabel);
  if (JSON.stringify(before.pairs) !== JSON.stringify(after.pairs)) throw new Error('The two builds give different pairs: not the same network');
  before.run(before.pairs.slice(0, WARM_UP), WARM_UP);
  after.run(after.pairs.slice(0, WARM_UP), WARM_UP);
  const runs: Measured = { before: { cpu: [], settled: [] }, after: { cpu: [], settled: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (let at = 0; at < before.pairs.length; at += CHUNK) {
      const chunk = before.pairs.slice(at, at + CHUNK);
      const order = (at / CHUNK + round) % 2 === 0 ? SIDES : [...SIDES].reverse();
      for (const side of order) {
        const run = (side === 'before' ? before : after).run(chunk, 0);
        runs[side].cpu.push(...run.cpu);
        runs[side].settled.push(...run.settled);
      }
    }
  }
  return runs;
}

/** `measureBoth` in a child process of its own (a fresh heap and fresh reads). */
function measureInChild(args: readonly string[], costingLabel: string, readFirst: Side): Promise<Measured> {
  return new Promise((resolve, reject) => {
    let measured: Measured | undefined;
    fork(fileURLToPath(import.meta.url), [...args], { env: { ...process.env, [CHILD_ENV]: `${costingLabel} ${readFirst}` } })
      .on('message', (message) => (measured = message as Measured))
      .on('error', reject)
      .on('exit', (code) => (measured && code === 0 ? resolve(measured) : reject(new Error(`the ${readFirst}-first run of ${costingLabel} exited with ${code}`))));
  });
}

const CHILD_ENV = 'METRO_COMPARE_CHILD';
const [other, otherBuild, thisBuild, ...costings] = process.argv.slice(2);
if (!other || !otherBuild || !thisBuild) {
  console.error('Usage: npx tsx test/bench/metro-compare.ts <other checkout> <its metro folder> <this checkout\'s metro folder> [direct|supersafe|walking|night-supersafe|night-direct ...]');
  process.exit(2);
}
const builds: Record<Side, string> = { before: otherBuild, after: thisBuild };
const child = process.env[CHILD_ENV];
if (child) {
  const [costingLabel, readFirst] = child.split(' ') as [string, Side];
  process.send!(await measureBoth(other, builds, costingLabel, readFirst));
} else {
  const fixed = (value: number) => value.toFixed(2);
  const medianRatio = (runs: Measured) => percentile(runs.after.cpu.map((cpu, i) => cpu / runs.before.cpu[i]!), 50);
  for (const costingLabel of costings.length > 0 ? costings : ['direct', 'supersafe', 'walking']) {
    const halves = [await measureInChild(process.argv.slice(2), costingLabel, 'before'), await measureInChild(process.argv.slice(2), costingLabel, 'after')];
    for (const side of SIDES) {
      const cpu = halves.flatMap((half) => half[side].cpu);
      const settled = halves.flatMap((half) => half[side].settled);
      console.log(`${costingLabel} ${side}: CPU p50 / p95 / p99 ${fixed(percentile(cpu, 50))} / ${fixed(percentile(cpu, 95))} / ${fixed(percentile(cpu, 99))} ms, states settled p50 / p95 ${percentile(settled, 50)} / ${percentile(settled, 95)}`);
    }
    const [beforeFirst, afterFirst] = halves.map(medianRatio) as [number, number];
    const queries = halves.reduce((count, half) => count + half.after.cpu.length, 0);
    console.log(`${costingLabel}: median per-query CPU after / before ${fixed(Math.sqrt(beforeFirst * afterFirst))} (geometric mean of ${fixed(beforeFirst)} reading before's graph first and ${fixed(afterFirst)} reading after's first; ${queries} queries)`);
  }
}
