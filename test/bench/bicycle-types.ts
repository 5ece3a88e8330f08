import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { cityIds, type CityId } from '../../core/cities/index.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { EDGE_STEPS, NODE_BARRIER_NARROW, SEGMENT_COBBLES, SEGMENT_NARROW, SEGMENT_ROUGH, SEGMENT_UNPAVED } from '../../core/graph/flags.ts';
import { BICYCLE_TYPES, type BicycleType } from '../../core/routing/costing/bicycle-types.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { costingFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';
import { graphOutputDir } from '../../lib/local/paths.ts';
import { measuredOn } from './doc-section.ts';
import { cyclingNodes, cyclingRegions, loadMeasured, percentile, randomPairs } from './measure.ts';
import { benchContext, EVENING_DEPARTURE } from './route-quality.ts';

/**
 * The bicycle types (core/routing/costing/bicycle-types.ts) on seeded real pairs: each pair routed
 * for every type as the directions endpoint plans it, and what each route crosses that a type
 * cares about: unpaved, cobbled and rough metres (road), steps and narrow barriers and ways
 * (cargo), its duration and climb (e-bike). `npm run bench` reports it per city
 * (BENCH_SECTIONS=bicycle-types, docs/benchmarks.md); test/routing/bicycle-types.test.ts holds the
 * guarantees on other seeds.
 */

/** What one route crosses that the bicycle types weigh. */
export interface TypeFeatures {
  metres: number;
  /** Seconds, as the answer gives them. */
  duration: number;
  ascent: number;
  unpaved: number;
  /** Unpaved metres but for the first and last edge: the ways the coordinates themselves lie on, which no route can leave out. */
  unpavedBetweenEnds: number;
  cobbles: number;
  rough: number;
  /** Flights of steps (EDGE_STEPS edges) along the route. */
  steps: number;
  /** Barriers a cargo bike does not fit through (NODE_BARRIER_NARROW) passed between two edges. */
  narrowBarriers: number;
  /** Metres of ways under 1 m wide (SEGMENT_NARROW). */
  narrowWays: number;
}

/** The features of a path (`TypeFeatures`). */
export function typeFeatures(network: RoutingNetwork, path: RoutedPath): TypeFeatures {
  const graph = network.graph;
  const features: TypeFeatures = { metres: path.distance, duration: path.duration, ascent: path.ascent, unpaved: 0, unpavedBetweenEnds: 0, cobbles: 0, rough: 0, steps: 0, narrowBarriers: 0, narrowWays: 0 };
  path.edges.forEach((edge, index) => {
    const ride = graph.segmentRideFlags[edge.segment]!;
    if (ride & SEGMENT_UNPAVED) features.unpaved += edge.length;
    if (ride & SEGMENT_UNPAVED && index > 0 && index < path.edges.length - 1) features.unpavedBetweenEnds += edge.length;
    if (ride & SEGMENT_COBBLES) features.cobbles += edge.length;
    if (ride & SEGMENT_ROUGH) features.rough += edge.length;
    if (ride & SEGMENT_NARROW) features.narrowWays += edge.length;
    if (edge.flags & EDGE_STEPS) features.steps++;
    if (index < path.edges.length - 1 && graph.nodeFlags[graph.edgeHead[edge.edge]!]! & NODE_BARRIER_NARROW) features.narrowBarriers++;
  });
  return features;
}

export interface TypedPair {
  from: [number, number];
  to: [number, number];
  /** Per type of BICYCLE_TYPES, the route's features; null where the type has no route. */
  routes: (TypeFeatures | null)[];
}

/** One pair's route for a bicycle type as the directions endpoint plans it; null when there is none. */
export function routeForType(context: RoutingContext, bicycleType: BicycleType, supersafe: boolean, from: [number, number], to: [number, number]): RoutedPath | null {
  const costing = costingFor(context, { profile: 'cycling', supersafe, night: false, bicycleType });
  return planWaypoints(costing, context, [from, to], { language: 'en' }).legs?.[0]?.path ?? null;
}

/** Seeded pairs 1 to 4 km apart (the route-quality pairs' generator), each routed for every bicycle type; pairs hybrid cannot route are left out. */
export function typedPairs(
  city: CityId,
  loaded: LoadedGraph,
  options: { count: number; seed: number; supersafe: boolean },
): TypedPair[] {
  const context = benchContext(city, loaded);
  const network = loaded.network;
  const pairs: TypedPair[] = [];
  for (const [a, b] of randomPairs(network, options.count, 1000, 4000, options.seed, cyclingNodes(network), cyclingRegions(network))) {
    const from: [number, number] = [network.nodeLon(a), network.nodeLat(a)];
    const to: [number, number] = [network.nodeLon(b), network.nodeLat(b)];
    const routes = BICYCLE_TYPES.map((type) => {
      const path = routeForType(context, type, options.supersafe, from, to);
      return path ? typeFeatures(network, path) : null;
    });
    if (routes[0] !== null) pairs.push({ from, to, routes });
  }
  return pairs;
}

/** Pairs per city and metric whose routes are timed. */
const TIMED_PAIRS = 60;

const typeIndex = (type: BicycleType): number => BICYCLE_TYPES.indexOf(type);

/** Summed over the pairs every type routes: one feature of one type's routes. */
function total(pairs: readonly TypedPair[], type: BicycleType, feature: keyof TypeFeatures): number {
  return pairs.reduce((sum, pair) => sum + (pair.routes[typeIndex(type)]?.[feature] ?? 0), 0);
}

/**
 * The benchmark's section (BENCH_SECTIONS=bicycle-types): per city and metric, `count` seeded
 * pairs routed for every type, and what each type's routes cross against hybrid's on the same pairs.
 */
export function bicycleTypesSection(emit: (line?: string) => void, table: (rows: string[][]) => void, options: { count: number; seed: number }): void {
  const km = (metres: number) => (metres / 1000).toFixed(1);
  emit('## Bicycle types');
  emit();
  emit(
    `Measured by \`BENCH_SECTIONS=bicycle-types npm run bench\` (\`test/bench/bicycle-types.ts\`) on ${measuredOn()} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ` +
      `load average ${loadavg()[0]!.toFixed(2)} at the start; figures of the routes, and CPU time, which a busy machine disturbs less than wall time): ` +
      `${options.count} random pairs of cycling-network nodes 1 to 4 km apart per city (seed ${options.seed}, the route-quality pairs), departure ${EVENING_DEPARTURE.replace('T', ' ')}, ` +
      `each routed supersafe and direct for every bicycle type (${BICYCLE_TYPES.join(', ')}) as the directions endpoint plans them, one type after the other on each pair. ` +
      'Pairs: those hybrid routes (a cargo bike may have no route where hybrid has one). Metres and counts are summed over the pairs each type routes; ' +
      'length and duration are each type\'s sum over hybrid\'s on the pairs both route. CPU ms per route: snapping, the searches and guidance in this process alone; ' +
      `timed warm, type by type on the first ${TIMED_PAIRS} pairs after every pair was routed once (a type other than hybrid computes its cost tables on its first route per graph and metric; that first route is not timed here).`,
  );
  emit();
  const rows = [[
    'City', 'Metric', 'Pairs', 'Unpaved km (between the ends): hybrid / road / mountain', 'Cobbles + rough km: hybrid / road', 'Steps / narrow barriers / narrow-way m: hybrid / cargo',
    'Cargo: no route', 'Length vs hybrid: road / mountain / cargo / ebike', 'Duration vs hybrid: road / mountain / cargo / ebike', 'Climb m: hybrid / ebike', `CPU ms p50 per route: ${BICYCLE_TYPES.join(' / ')}`,
  ]];
  for (const city of cityIds) {
    const pointer = parseGraphPointer(readFileSync(join(graphOutputDir(), currentPointerKey(city)), 'utf8'));
    const { loaded } = loadMeasured(city, readFileSync(join(graphOutputDir(), pointer.key)));
    for (const supersafe of [true, false]) {
      const perRoute: number[][] = BICYCLE_TYPES.map(() => []);
      const pairs = typedPairs(city, loaded, { count: options.count, seed: options.seed, supersafe });
      // Timed warm, type by type over the first TIMED_PAIRS pairs again: each type's tables exist by then.
      for (const type of BICYCLE_TYPES) {
        const cpu: number[] = [];
        const context = benchContext(city, loaded);
        for (const pair of pairs.slice(0, TIMED_PAIRS)) {
          const started = process.cpuUsage();
          routeForType(context, type, supersafe, pair.from, pair.to);
          const used = process.cpuUsage(started);
          cpu.push((used.user + used.system) / 1000);
        }
        perRoute[typeIndex(type)] = cpu;
      }
      const both = (type: BicycleType) => pairs.filter((pair) => pair.routes[typeIndex(type)] !== null);
      const ratio = (type: BicycleType, feature: 'metres' | 'duration') => (total(both(type), type, feature) / Math.max(1e-9, total(both(type), 'hybrid', feature))).toFixed(3);
      rows.push([
        city,
        supersafe ? 'supersafe' : 'direct',
        String(pairs.length),
        (['hybrid', 'road', 'mountain'] as const).map((type) => `${km(total(pairs, type, 'unpaved'))} (${km(total(pairs, type, 'unpavedBetweenEnds'))})`).join(' / '),
        `${km(total(pairs, 'hybrid', 'cobbles') + total(pairs, 'hybrid', 'rough'))} / ${km(total(pairs, 'road', 'cobbles') + total(pairs, 'road', 'rough'))}`,
        `${total(pairs, 'hybrid', 'steps')} / ${total(pairs, 'hybrid', 'narrowBarriers')} / ${Math.round(total(pairs, 'hybrid', 'narrowWays'))}; ` +
          `${total(pairs, 'cargo', 'steps')} / ${total(pairs, 'cargo', 'narrowBarriers')} / ${Math.round(total(pairs, 'cargo', 'narrowWays'))}`,
        String(pairs.length - both('cargo').length),
        `${ratio('road', 'metres')} / ${ratio('mountain', 'metres')} / ${ratio('cargo', 'metres')} / ${ratio('ebike', 'metres')}`,
        `${ratio('road', 'duration')} / ${ratio('mountain', 'duration')} / ${ratio('cargo', 'duration')} / ${ratio('ebike', 'duration')}`,
        `${Math.round(total(pairs, 'hybrid', 'ascent'))} / ${Math.round(total(pairs, 'ebike', 'ascent'))}`,
        perRoute.map((cpu) => percentile(cpu, 50).toFixed(2)).join(' / '),
      ]);
      console.log(`  ${city} ${supersafe ? 'supersafe' : 'direct'} done (load average ${loadavg()[0]!.toFixed(2)})`);
    }
  }
  table(rows);
  emit();
  emit(
    'Reading the table: unpaved metres include those of the ways the pairs\' own nodes lie on, which no route can leave out (Los Angeles\' pairs start or end on unpaved paths); ' +
      'in brackets those of the ways between the ends alone, as test/routing/bicycle-types.test.ts counts them. A road route\'s unpaved metres between the ends are none wherever a paved route at most 1.3 times as long exists (the test checks each seeded pair). ' +
      'Cobbles + rough is where the road bike\'s avoidance shows most (New York\'s Belgian-block streets). A cargo bike crosses no steps, narrow barrier or narrow way; where only such a passage joins a pair it has no route. ' +
      'Durations follow the types\' speeds (an e-bike about 0.7 of hybrid\'s; in hilly San Francisco a road bike gains less and a cargo bike loses more). ' +
      'The other types\' searches cost more CPU than hybrid\'s (up to about three times in New York): their bounds are hybrid\'s scaled down by the least cost ratio (docs/routing.md, "Bicycle types"), which settles more states, ' +
      'and their cost tables are computed ones, not the graph\'s stored ones.',
  );
}
