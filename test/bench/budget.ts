import { cpus, loadavg, totalmem } from 'node:os';
import { cities } from '../../core/cities/index.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { EDGE_CYCLING } from '../../core/graph/flags.ts';
import { RouteBudgetExceededError, type RouteBudgetLimit } from '../../core/routing/errors.ts';
import { ROUTE_BUDGET, RouteBudget, straightLineMetres } from '../../core/routing/planning/budget.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { RoutePlanner, type RouteVariant } from '../../core/routing/planning/planner.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { seededRandom } from '../routing/real-graphs.ts';
import { measuredOn } from './doc-section.ts';
import { percentile } from './measure.ts';

/**
 * The compute budget per request (core/routing/planning/budget.ts) measured on New York, the
 * largest served city: seeded requests of 25 coordinates planned as each endpoint plans them,
 * through the route planner with a budget of its own per request, warm, in process. A request
 * counts whether it is answered or refused: the budget must bound both. Each request is planned
 * in every way one after the other, and with every budget size measured, so a busy machine slows
 * them alike.
 */

/** How a request is planned: directions in each profile, and explain-supersafe with `avoid_hills` at its heaviest (four routes). */
export const PLANNINGS = ['walking', 'cycling supersafe', 'cycling direct', 'explain, avoid_hills'] as const;
export type Planning = (typeof PLANNINGS)[number];

/** Seeded 25-coordinate requests: across the city (every point anywhere), and errands (each point 0.3 to 1.2 km from the last). */
export const REQUEST_KINDS = ['across the city', 'errands'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

const COORDINATES = 25;
const DEPARTURE = '2026-06-15T12:00';

export interface BudgetRun {
  /** Milliseconds per request, answered or refused: wall time, and the process's CPU time (what a busy machine's waits for a core leave out). */
  milliseconds: number[];
  cpuMilliseconds: number[];
  /** States settled by the answered requests. */
  settled: number[];
  refused: Record<RouteBudgetLimit, number>;
}

export function seededRequests(loaded: LoadedGraph, kind: RequestKind, count: number, seed: number): LonLat[][] {
  const { network } = loaded;
  const graph = network.graph;
  const random = seededRandom(seed);
  const cyclingEdges: number[] = [];
  for (let edge = 0; edge < graph.edgeCount; edge++) if (graph.edgeFlags[edge]! & EDGE_CYCLING) cyclingEdges.push(edge);
  const anywhere = (): LonLat => {
    const node = graph.edgeTail[cyclingEdges[Math.floor(random() * cyclingEdges.length)]!]!;
    return [network.nodeLon(node), network.nodeLat(node)];
  };
  const near = (from: LonLat): LonLat => {
    for (;;) {
      const point = anywhere();
      const metres = haversineMetres(from[0], from[1], point[0], point[1]);
      if (metres >= 300 && metres <= 1200) return point;
    }
  };
  return Array.from({ length: count }, () => {
    const coordinates: LonLat[] = [anywhere()];
    while (coordinates.length < COORDINATES) coordinates.push(kind === 'errands' ? near(coordinates.at(-1)!) : anywhere());
    return coordinates;
  });
}

/** The routes a planning plans for a request, on one planner (one budget). */
function plan(planner: RoutePlanner, planning: Planning, coordinates: readonly LonLat[]): number {
  const variants: RouteVariant[] =
    planning === 'walking'
      ? [{ profile: 'walking', supersafe: false }]
      : planning === 'cycling supersafe'
        ? [{ profile: 'cycling', supersafe: true }]
        : planning === 'cycling direct'
          ? [{ profile: 'cycling', supersafe: false }]
          : [{ profile: 'cycling', supersafe: true }, { profile: 'cycling', supersafe: false }];
  let settled = 0;
  const planners = planning === 'explain, avoid_hills' ? [planner, planner.withPreferences({ ...planner.preferences, avoidHills: false })] : [planner];
  for (const each of planners) {
    for (const variant of variants) settled += each.route(variant, coordinates).legs?.reduce((sum, leg) => sum + leg.statesSettled, 0) ?? 0;
  }
  return settled;
}

/** Every request planned every way under every budget size (states settled), after one warm-up round on the first few. */
export function measureBudgets(loaded: LoadedGraph, requests: readonly LonLat[][], budgets: readonly number[]): Map<string, BudgetRun> {
  const city = cities['new-york'];
  const context: RoutingContext = { city, loaded, departure: departureIn(city.timeZone, DEPARTURE, new Date(0)), reports: null };
  const runs = new Map<string, BudgetRun>();
  const key = (planning: Planning, states: number) => `${planning}:${states}`;
  for (const states of budgets) for (const planning of PLANNINGS) runs.set(key(planning, states), { milliseconds: [], cpuMilliseconds: [], settled: [], refused: { route_length: 0, states_settled: 0 } });
  const warmUp = requests.slice(0, 3);
  for (const [round, batch] of [warmUp, requests].entries()) {
    for (const coordinates of batch) {
      for (const states of budgets) {
        for (const planning of PLANNINGS) {
          const run = runs.get(key(planning, states))!;
          const avoidHills = planning === 'explain, avoid_hills';
          const planner = new RoutePlanner(context, { language: 'en', avoidHills }, coordinates[0]!, { budget: new RouteBudget(states) });
          const cpu = process.cpuUsage();
          const started = performance.now();
          let settled: number | null = null;
          let refusal: RouteBudgetLimit | null = null;
          try {
            settled = plan(planner, planning, coordinates);
          } catch (error) {
            if (!(error instanceof RouteBudgetExceededError)) throw error;
            refusal = error.limit;
          }
          const elapsed = performance.now() - started;
          const cpuUsed = process.cpuUsage(cpu);
          if (round === 0) continue;
          run.milliseconds.push(elapsed);
          run.cpuMilliseconds.push((cpuUsed.user + cpuUsed.system) / 1000);
          if (refusal) run.refused[refusal]++;
          else run.settled.push(settled!);
        }
      }
    }
  }
  return runs;
}

const thousands = (value: number) => Math.round(value).toLocaleString('en');

/** The section of docs/benchmarks.md: `BENCH_SECTIONS=budget npm run bench`. */
export function computeBudgetSection(loaded: LoadedGraph, options: { requests: number; budgets: readonly number[] }): string[] {
  const lines: string[] = [];
  const emit = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  const startLoad = loadavg()[0]!;
  emit('## Compute budget per request');
  emit();
  const edges = loaded.network.graph.edgeCount.toLocaleString('en');
  emit(
    `Measured by \`BENCH_SECTIONS=budget npm run bench\` (\`test/bench/budget.ts\`) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; warm, in process, one core, on a machine shared with other work. ` +
      `New York's graph (${edges} directed edges), departure ${DEPARTURE}, no reports. Per kind ${options.requests} seeded requests of ${COORDINATES} coordinates on the cycling network: ` +
      '*across the city*, every point anywhere in the extract; *errands*, each point 0.3 to 1.2 km from the last. Each is planned as directions plans it in each profile ' +
      '(snap, search, path and steps with instructions; a direct cycling leg searches twice), and as explain-supersafe with `avoid_hills` at its heaviest: ' +
      'supersafe and direct with the hill preference, then both again without it, four routes on one budget. Every request is planned every way, under every budget size measured, one after the other; ' +
      'one warm-up round on three requests, then one timed. A request counts whether it is answered or refused: the budget bounds both. ' +
        'Times are wall clock and, last, the CPU time of the process (user + system, `process.cpuUsage`, which counts the threads of the collector too): on a machine whose load is several times its cores the wall clock mostly measures waiting for a core.',
  );
  emit();
  const rows = [['Requests', 'Planned as', 'States budget', 'Refused: length / states', 'Answered: states p50 / max', 'p50 ms', 'p95 ms', 'max ms', 'CPU p50 / p95 / max ms']];
  for (const [index, kind] of REQUEST_KINDS.entries()) {
    const requests = seededRequests(loaded, kind, options.requests, 34 + index);
    const metres = requests.map(straightLineMetres);
    console.log(`  ${kind}: straight-line km p50 ${(percentile(metres, 50) / 1000).toFixed(1)}, max ${(Math.max(...metres) / 1000).toFixed(1)} (load ${loadavg()[0]!.toFixed(2)})`);
    const runs = measureBudgets(loaded, requests, options.budgets);
    for (const states of options.budgets) {
      for (const planning of PLANNINGS) {
        const run = runs.get(`${planning}:${states}`)!;
        rows.push([
          `${kind} (${(percentile(metres, 50) / 1000).toFixed(0)} km p50)`,
          planning,
          thousands(states),
          `${run.refused.route_length} / ${run.refused.states_settled}`,
          run.settled.length ? `${thousands(percentile(run.settled, 50))} / ${thousands(Math.max(...run.settled))}` : '-',
          percentile(run.milliseconds, 50).toFixed(1),
          percentile(run.milliseconds, 95).toFixed(1),
          Math.max(...run.milliseconds).toFixed(1),
          [percentile(run.cpuMilliseconds, 50), percentile(run.cpuMilliseconds, 95), Math.max(...run.cpuMilliseconds)].map((value) => value.toFixed(1)).join(' / '),
        ]);
      }
    }
  }
  emit(`| ${rows[0]!.join(' | ')} |`);
  emit(`|${rows[0]!.map(() => '---').join('|')}|`);
  for (const row of rows.slice(1)) emit(`| ${row.join(' | ')} |`);
  emit();
  emit(
    `Load average at the start ${startLoad.toFixed(2)}, at the end ${loadavg()[0]!.toFixed(2)}. The budget in force (\`ROUTE_BUDGET\`): legs of ${ROUTE_BUDGET.routeMetres.cycling / 1000} km cycling and ` +
      `${ROUTE_BUDGET.routeMetres.walking / 1000} km walking in a straight line, ${thousands(ROUTE_BUDGET.statesSettled)} states settled per request.`,
  );
  emit();
  return lines;
}
