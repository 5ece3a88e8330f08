import './scratch.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cities, type CityId } from '../../core/cities/index.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import type { BuildReport } from '../../graph-builder/build.ts';
import { buildableCity, type BuildableCity } from '../../graph-builder/city-recipes.ts';
import { hillContext, planHillRoute, seededHillPairs } from '../support/hill-routes.ts';
import { buildInChild } from './build-in-child.ts';
import { measuredOn, replaceDocSection } from './doc-section.ts';
import { percentile } from './measure.ts';

/**
 * The hill preference measured (docs/benchmarks.md, "Elevation and the hill preference"):
 *   1. on seeded San Francisco pairs 1 to 5 km apart (both ends measured by the model, joined by a
 *      supersafe route), the total climb of supersafe and direct routes with and without
 *      `avoid_hills`, the detour it costs and the planning time per route;
 *   2. what elevation costs the build: each city with a model built with and without it, in fresh
 *      processes (median of --runs builds), the elevation stage's time and the output's bytes per
 *      directed edge.
 * Usage: npx tsx test/bench/hills.ts [--pairs 200] [--runs 3] [--no-docs]
 */

const print = (line = ''): boolean => process.stdout.write(`${line}\n`);
const median = (values: readonly number[]): number => percentile(values, 50);


interface HillRun {
  costing: 'supersafe' | 'direct';
  climbWithout: number;
  climbWith: number;
  detourMedian: number;
  detourP90: number;
  /** Pairs whose route changed with the preference on. */
  changed: number;
  msWithout: number;
  msWith: number;
}

function hillRuns(pairCount: number): { pairs: number; runs: HillRun[] } {
  const context = hillContext('sf-bay');
  const pairs = seededHillPairs(context, pairCount, 2026);
  const runs = (['supersafe', 'direct'] as const).map((costing): HillRun => {
    const supersafe = costing === 'supersafe';
    const run: HillRun = { costing, climbWithout: 0, climbWith: 0, detourMedian: 0, detourP90: 0, changed: 0, msWithout: 0, msWith: 0 };
    const detours: number[] = [];
    const timesWithout: number[] = [];
    const timesWith: number[] = [];
    for (const pair of pairs) {
      let started = performance.now();
      const without = planHillRoute(context, pair, { supersafe, avoidHills: false })!.body;
      timesWithout.push(performance.now() - started);
      started = performance.now();
      const withHills = planHillRoute(context, pair, { supersafe, avoidHills: true })!.body;
      timesWith.push(performance.now() - started);
      run.climbWithout += without.elevation_gain;
      run.climbWith += withHills.elevation_gain;
      if (withHills.geometry.coordinates.length !== without.geometry.coordinates.length || withHills.distance !== without.distance) run.changed++;
      detours.push(withHills.distance / without.distance);
    }
    Object.assign(run, { detourMedian: median(detours), detourP90: percentile(detours, 90), msWithout: median(timesWithout), msWith: median(timesWith) });
    return run;
  });
  return { pairs: pairs.length, runs };
}

/** Builds the city in a fresh process, with its models or none; its report. */
async function buildReport(city: BuildableCity): Promise<BuildReport> {
  const outDir = await mkdtemp(join(tmpdir(), 'hills-bench-'));
  try {
    return (await buildInChild(city, { dataPath: sharedDataPath(), outDir })).report;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

interface BuildCost {
  city: CityId;
  edges: number;
  nodes: number;
  segments: number;
  nodesMeasured: number;
  secondsWithout: number;
  secondsWith: number;
  elevationStageWithout: number;
  elevationStageWith: number;
  bytesWithout: number;
  bytesWith: number;
}

async function buildCosts(runs: number): Promise<BuildCost[]> {
  const costs: BuildCost[] = [];
  for (const id of ['sf-bay', 'london', 'new-york'] as const) {
    const city = buildableCity(id);
    const flat: BuildableCity = { ...city, graph: { ...city.graph, elevation: [] } };
    const without: BuildReport[] = [];
    const withModels: BuildReport[] = [];
    for (let run = 0; run < runs; run++) {
      without.push(await buildReport(flat));
      withModels.push(await buildReport(city));
    }
    const stage = (report: BuildReport) => report.stages?.find((entry) => entry.name === 'elevation')?.seconds ?? 0;
    costs.push({
      city: id,
      edges: withModels[0]!.edges,
      nodes: withModels[0]!.nodes,
      segments: withModels[0]!.segments,
      nodesMeasured: withModels[0]!.elevation.nodes_by_source.dem,
      secondsWithout: median(without.map((report) => report.build_seconds)),
      secondsWith: median(withModels.map((report) => report.build_seconds)),
      elevationStageWithout: median(without.map(stage)),
      elevationStageWith: median(withModels.map(stage)),
      bytesWithout: without[0]!.output_bytes,
      bytesWith: withModels[0]!.output_bytes,
    });
  }
  return costs;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { pairs: { type: 'string', default: '200' }, runs: { type: 'string', default: '3' }, 'no-docs': { type: 'boolean', default: false } },
  });
  const loadAtStart = loadavg()[0]!;
  const hills = hillRuns(Number(values.pairs));
  const costs = await buildCosts(Number(values.runs));
  const loadAtEnd = loadavg()[0]!;

  const lines: string[] = [
    '## Elevation and the hill preference',
    '',
    `Measured by \`npx tsx test/bench/hills.ts\` on ${measuredOn()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; 1-minute load average ${loadAtStart.toFixed(1)} at the start and ${loadAtEnd.toFixed(1)} at the end${Math.max(loadAtStart, loadAtEnd) > cpus().length ? ' (other work shared the cores, so times are inflated)' : ''}.`,
    '',
    `### Climb on ${hills.pairs} seeded San Francisco pairs`,
    '',
    'Pairs of graph nodes 1 to 5 km apart whose heights the USGS model measured and that a supersafe route joins (seed 2026, as in test/routing/hills.test.ts, which holds the same two limits on 60 of them: the climb falls by at least a third, the median detour is at most 1.15). Climb is the sum of the routes\' `elevation_gain`; detour is the route with `avoid_hills` over the route without, by distance; times are the median of planning one route in process (snap, search, guidance), warm.',
    '',
    '| Costing | Climb without | Climb with `avoid_hills` | Change | Routes changed | Median detour | 90th percentile detour | Median ms without / with |',
    '|---|---|---|---|---|---|---|---|',
    ...hills.runs.map((run) =>
      `| ${run.costing} | ${Math.round(run.climbWithout).toLocaleString('en')} m | ${Math.round(run.climbWith).toLocaleString('en')} m | ${(((run.climbWith - run.climbWithout) / run.climbWithout) * 100).toFixed(0)}% | ${run.changed} of ${hills.pairs} | ${run.detourMedian.toFixed(3)} | ${run.detourP90.toFixed(3)} | ${run.msWithout.toFixed(1)} / ${run.msWith.toFixed(1)} |`),
    '',
    '### What elevation costs the build',
    '',
    `Each city built with its models and with none (\`elevation: []\`), each build in a fresh process, median of ${values.runs}. The graph file holds the heights either way (\`nodeElevation\`, a f32 per node, and \`segmentAscent\`/\`segmentDescent\`, two u16 per segment, zeros when flat; the file is not compressed), so its size differs only by the header's list of models; what the heights take is those arrays, given per directed edge. The time is the models read, voids filled, surface models smoothed and every segment sampled every 10 m (the elevation stage), plus hashing the model files.${Math.max(loadAtStart, loadAtEnd) > cpus().length ? ' On a shared machine whole-build times vary between runs by more than elevation adds; the elevation stage\'s own time is the figure to read.' : ''}`,
    '',
    '| City | Directed edges | Nodes measured | Build s without / with | Elevation stage s without / with | Output bytes without / with | Output bytes per edge | Heights, bytes per edge |',
    '|---|---|---|---|---|---|---|---|',
    ...costs.map((cost) =>
      `| ${cities[cost.city].name} | ${cost.edges.toLocaleString('en')} | ${cost.nodesMeasured.toLocaleString('en')} | ${cost.secondsWithout.toFixed(2)} / ${cost.secondsWith.toFixed(2)} | ${cost.elevationStageWithout.toFixed(3)} / ${cost.elevationStageWith.toFixed(3)} | ${cost.bytesWithout.toLocaleString('en')} / ${cost.bytesWith.toLocaleString('en')} | ${(cost.bytesWith / cost.edges).toFixed(1)} | ${((4 * cost.nodes + 4 * cost.segments) / cost.edges).toFixed(1)} |`),
  ];
  for (const line of lines) print(line);
  if (!values['no-docs']) await replaceDocSection('hills', lines);
}

await main();
