/**
 * Multi-modal and explain-supersafe benchmark: `npx tsx test/bench/multimodal.ts`. Plans whole
 * multi-modal requests in process, warm, with the code the endpoint runs (every option: both
 * Personal variants, docked and docked e-bike from the recorded feed, parking where asked), on the
 * real graphs, the recorded bike-share snapshots and the published parking datasets; and the
 * explain-supersafe sentence for the same pairs. Only the I/O is left out: the graph, snapshot and
 * datasets are in memory, as in a warm Lambda between refreshes. The figures are recorded in
 * docs/benchmarks.md ("Multi-modal and explain-supersafe").
 */
import './scratch.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CityId } from '../../core/cities/index.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { graphOutputDir, sharedDataPath } from '../../lib/local/paths.ts';
import type { BikeShareSnapshot } from '../../functions/bikeshare/model.ts';
import { explainSupersafe } from '../../functions/explain/explain.ts';
import { explainRequest } from '../../functions/explain/request.ts';
import { planMultiModal } from '../../functions/multimodal/plan.ts';
import { compileParkingDatasets } from '../../functions/multimodal/parking/datasets.ts';
import { multiModalRequest } from '../../functions/multimodal/request.ts';
import type { PlannerSources } from '../../functions/multimodal/sources.ts';
import { loadGraphBytes, type LoadedGraph } from '../../functions/graphs/graph-store.ts';
import type { RoutingLoaders } from '../../functions/graphs/context-loader.ts';
import { buildOverlay } from '../../functions/graphs/report-overlay.ts';
import { randomNodeLocation, seededRandom } from '../routing/real-graphs.ts';
import { recordedSnapshot } from '../support/bikeshare.ts';
import { FIXED_NOW } from '../support/clock.ts';
import { memorySources } from '../support/multimodal.ts';
import { percentile } from './measure.ts';
import { measuredOn } from './doc-section.ts';

const PAIRS = 300;
const WARM_UP = 30;
const DEPARTURE = '2026-06-15T12:00';

function graphOf(city: CityId): LoadedGraph {
  const directory = graphOutputDir();
  const pointer = parseGraphPointer(readFileSync(join(directory, currentPointerKey(city)), 'utf8'));
  return loadGraphBytes(city, readFileSync(join(directory, pointer.key)));
}

function pairs(loaded: LoadedGraph, count: number, seed: number): [LonLat, LonLat][] {
  const random = seededRandom(seed);
  const found: [LonLat, LonLat][] = [];
  while (found.length < count) {
    const a = randomNodeLocation(loaded.network, random);
    const b = randomNodeLocation(loaded.network, random);
    const metres = haversineMetres(a[0], a[1], b[0], b[1]);
    if (metres >= 1_000 && metres <= 6_000) found.push([a, b]);
  }
  return found;
}

async function measure(label: string, city: CityId, system: BikeShareSnapshot, extra: Record<string, unknown>): Promise<string> {
  const loaded = graphOf(city);
  const overlay = buildOverlay(loaded, []);
  const routing: RoutingLoaders = { graph: async () => loaded, overlay: async () => overlay };
  const sources: PlannerSources = { ...memorySources({ systems: [system], spots: await compileParkingDatasets(sharedDataPath(), [city]) }), routing };
  const all = pairs(loaded, PAIRS + WARM_UP, 17);
  const times: number[] = [];
  const explainTimes: number[] = [];
  let options = 0;
  let withBikeShare = 0;
  for (const [index, [start, end]] of all.entries()) {
    const request = multiModalRequest.parse({ start, end, departure_time: DEPARTURE, ...extra });
    const started = performance.now();
    const outcome = await planMultiModal(request, FIXED_NOW, sources);
    const elapsed = performance.now() - started;
    const explainStarted = performance.now();
    await explainSupersafe(explainRequest.parse({ coordinates: [start, end], departure_time: DEPARTURE }), FIXED_NOW, routing);
    const explainElapsed = performance.now() - explainStarted;
    if (index < WARM_UP || outcome.kind !== 'planned') continue;
    times.push(elapsed);
    explainTimes.push(explainElapsed);
    options += outcome.body.options.length;
    if (outcome.body.options.some((option) => option.type !== 'personal')) withBikeShare++;
  }
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return `| ${label} | ${times.length} | ${(options / times.length).toFixed(1)} | ${withBikeShare} | ${ms(percentile(times, 50))} / ${ms(percentile(times, 95))} | ${ms(percentile(explainTimes, 50))} / ${ms(percentile(explainTimes, 95))} |`;
}

async function main(): Promise<void> {
  const rows = [
    await measure('New York City, Citi Bike (2,226 stations)', 'new-york', recordedSnapshot('citi-bike'), {}),
    await measure('New York City, Citi Bike, `parking_type: regular`', 'new-york', recordedSnapshot('citi-bike'), { parking_type: 'regular' }),
    await measure('London, Santander Cycles (800 stations)', 'london', recordedSnapshot('santander-cycles'), {}),
  ];
  console.log(
    [
      `Measured by \`npx tsx test/bench/multimodal.ts\` on ${measuredOn()}: Node ${process.version}, one process, warm (${WARM_UP} requests first).`,
      '',
      '| City and system | Requests | Options per answer | Answers with bike share | Multi-modal p50 / p95 | Explain p50 / p95 |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
}

await main();
