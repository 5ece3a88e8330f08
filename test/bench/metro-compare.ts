/**
 * Two routers side by side on the metro benchmark's network, in one process: this checkout's on
 * its own metro build, and another checkout's (an earlier commit, say) on that checkout's build.
 * Chunks of 25 of the metro section's pairs (test/bench/metro.ts: the same seeds, closures and
 * departure) go to each router in turn, the order alternating per chunk, over two rounds, so a
 * machine whose speed drifts within minutes (docs/benchmarks.md says how much) weighs on both
 * alike. Prints CPU p50 / p95 / p99, states settled, and the median of the per-query CPU ratio.
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   (cd /tmp/before && BENCH_METRO_DIR=/tmp/metro-before BENCH_SECTIONS=metro BENCH_WRITE_DOCS=0 npm run bench)
 *   BENCH_METRO_DIR=/tmp/metro-after BENCH_SECTIONS=metro BENCH_WRITE_DOCS=0 npm run bench
 *   npx tsx test/bench/metro-compare.ts /tmp/before /tmp/metro-before /tmp/metro-after [costing ...]
 *
 * Costings: direct, supersafe, walking (default all three). Each build folder is a metro work
 * folder as BENCH_METRO_DIR keeps it (its cities/new-york/current.json names the graph).
 */
import './scratch.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../lib/project-root.ts';

const CHUNK = 25;
const ROUNDS = 2;
const WARM_UP = 50;

type Pair = [number, number];
interface Router {
  pairs: Pair[];
  run(chunk: readonly Pair[], warmUp: number): { cpu: number[]; settled: number[] };
  percentile(values: readonly number[], p: number): number;
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
  const departureMinute = localMinutes(2026, 6, 15, 8, 30);
  const walking = costingLabel === 'walking';
  const costing = createCosting(network, { profile: walking ? 'walking' : 'cycling', supersafe: costingLabel === 'supersafe', night: false, departureMinute }, walking ? null : overlay);
  return {
    pairs,
    run: (chunk, warmUp) => measure.measureCosting(loaded, chunk, costing, { guidance: false, warmUpPairs: warmUp }),
    percentile: measure.percentile,
  };
}

const [other, otherBuild, thisBuild, ...costings] = process.argv.slice(2);
if (!other || !otherBuild || !thisBuild) {
  console.error('Usage: npx tsx test/bench/metro-compare.ts <other checkout> <its metro folder> <this checkout\'s metro folder> [direct|supersafe|walking ...]');
  process.exit(2);
}
const graphs = { before: metroGraph(otherBuild), after: metroGraph(thisBuild) };
const fixed = (value: number) => value.toFixed(2);
for (const costingLabel of costings.length > 0 ? costings : ['direct', 'supersafe', 'walking']) {
  const before = await routerOf(other, graphs.before, costingLabel);
  const after = await routerOf(projectRoot, graphs.after, costingLabel);
  if (JSON.stringify(before.pairs) !== JSON.stringify(after.pairs)) throw new Error('The two builds give different pairs: not the same network');
  before.run(before.pairs.slice(0, WARM_UP), WARM_UP);
  after.run(after.pairs.slice(0, WARM_UP), WARM_UP);
  const runs = { before: { cpu: [] as number[], settled: [] as number[] }, after: { cpu: [] as number[], settled: [] as number[] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (let at = 0; at < before.pairs.length; at += CHUNK) {
      const chunk = before.pairs.slice(at, at + CHUNK);
      const order = (at / CHUNK + round) % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const side of order) {
        const run = (side === 'before' ? before : after).run(chunk, 0);
        runs[side].cpu.push(...run.cpu);
        runs[side].settled.push(...run.settled);
      }
    }
  }
  const p = before.percentile;
  for (const side of ['before', 'after'] as const) {
    const { cpu, settled } = runs[side];
    console.log(`${costingLabel} ${side}: CPU p50 / p95 / p99 ${fixed(p(cpu, 50))} / ${fixed(p(cpu, 95))} / ${fixed(p(cpu, 99))} ms, states settled p50 / p95 ${p(settled, 50)} / ${p(settled, 95)}`);
  }
  const ratios = runs.after.cpu.map((cpu, i) => cpu / runs.before.cpu[i]!).sort((x, y) => x - y);
  console.log(`${costingLabel}: median per-query CPU after / before ${fixed(ratios[Math.floor(ratios.length / 2)]!)} (${ratios.length} queries)`);
}
