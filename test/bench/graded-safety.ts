import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { cityIds, type CityId } from '../../core/cities/index.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { graphOutputDir } from '../../lib/local/paths.ts';
import { measuredOn } from './doc-section.ts';
import { percentile } from './measure.ts';
import { gradesUpTo, SAFETY_GRADES, SAFETY_TIE_METRES } from '../../core/routing/costing/safety.ts';
import { costingFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { cyclingNodes, cyclingRegions, loadMeasured, randomPairs } from './measure.ts';
import { benchContext, EVENING_DEPARTURE, pairFrontier, routeMetres, type PairQuality, type RouteMetres } from './route-quality.ts';

/**
 * The graded safety preference (core/routing/costing/safety.ts) on seeded real pairs: each pair
 * routed at a sweep of grades as the directions endpoint plans them, and whether the trade-off is
 * monotone: as the grade rises, busy + shared metres never rise and the length never falls, but
 * for ties (`SAFETY_TIE_METRES`). `npm run bench` reports it per city (BENCH_SECTIONS=graded-safety,
 * docs/benchmarks.md); test/routing/graded-safety.test.ts holds monotonicity on other seeds.
 */

/** The grades swept: the two ends and the grades between that routes are planned at (`balanced` among them). */
export const SWEPT_GRADES: readonly number[] = [0, ...gradesUpTo(1), 1];

export interface GradedPair {
  from: [number, number];
  to: [number, number];
  /** Per grade of `grades`, the route's metres. */
  routes: RouteMetres[];
  frontier: PairQuality['frontier'];
}

/** One pair's route at a grade as the directions endpoint plans it; null when there is none. */
export function routeAtSafety(context: RoutingContext, safety: number, from: [number, number], to: [number, number]): RouteMetres | null {
  const costing = costingFor(context, { profile: 'cycling', supersafe: safety === 1, safety, night: false });
  const path = planWaypoints(costing, context, [from, to], { language: 'en' }).legs?.[0]?.path;
  return path ? routeMetres(path) : null;
}

/** Seeded pairs 1 to 4 km apart (route-quality.ts's), each routed at every grade; with `frontier`, what the map allows too. */
export function sweepPairs(
  city: CityId,
  loaded: LoadedGraph,
  options: { count: number; seed: number; grades?: readonly number[]; frontier?: boolean; cpuMicroseconds?: number[] },
): GradedPair[] {
  const context = benchContext(city, loaded);
  const network = loaded.network;
  const grades = options.grades ?? SWEPT_GRADES;
  const direct = costingFor(context, { profile: 'cycling', supersafe: false, night: false });
  const pairs: GradedPair[] = [];
  for (const [a, b] of randomPairs(network, options.count, 1000, 4000, options.seed, cyclingNodes(network), cyclingRegions(network))) {
    const from: [number, number] = [network.nodeLon(a), network.nodeLat(a)];
    const to: [number, number] = [network.nodeLon(b), network.nodeLat(b)];
    const routes = grades.map((safety, index) => {
      const started = process.cpuUsage();
      const route = routeAtSafety(context, safety, from, to);
      const used = process.cpuUsage(started);
      if (options.cpuMicroseconds) options.cpuMicroseconds[index] = (options.cpuMicroseconds[index] ?? 0) + used.user + used.system;
      return route;
    });
    if (routes.some((route) => route === null)) continue;
    pairs.push({ from, to, routes: routes as RouteMetres[], frontier: options.frontier ? pairFrontier(direct, context, from, to) : null });
  }
  return pairs;
}

/** A step from one grade's route to the next higher grade's that is not monotone beyond a tie. */
export interface MonotonicityViolation {
  pair: number;
  /** The grades stepped between. */
  lower: number;
  higher: number;
  kind: 'busy + shared rose' | 'length fell';
  metres: number;
}

export function monotonicityViolations(pairs: readonly GradedPair[], grades: readonly number[] = SWEPT_GRADES): MonotonicityViolation[] {
  const violations: MonotonicityViolation[] = [];
  pairs.forEach((pair, index) => {
    for (let step = 1; step < grades.length; step++) {
      const lower = pair.routes[step - 1]!;
      const higher = pair.routes[step]!;
      const grade = { pair: index, lower: grades[step - 1]!, higher: grades[step]! };
      if (higher.busyShared > lower.busyShared + SAFETY_TIE_METRES) violations.push({ ...grade, kind: 'busy + shared rose', metres: higher.busyShared - lower.busyShared });
      if (higher.metres < lower.metres - SAFETY_TIE_METRES) violations.push({ ...grade, kind: 'length fell', metres: lower.metres - higher.metres });
    }
  });
  return violations;
}

/** Per grade over a set of pairs: metres and busy + shared metres summed, and pairs whose route differs from the grade below's. */
export interface GradeTotals {
  grade: number;
  metres: number;
  busyShared: number;
  changed: number;
}

export function gradeTotals(pairs: readonly GradedPair[], grades: readonly number[] = SWEPT_GRADES): GradeTotals[] {
  return grades.map((grade, index) => ({
    grade,
    metres: pairs.reduce((sum, pair) => sum + pair.routes[index]!.metres, 0),
    busyShared: pairs.reduce((sum, pair) => sum + pair.routes[index]!.busyShared, 0),
    changed: index === 0 ? 0 : pairs.filter((pair) => Math.abs(pair.routes[index]!.metres - pair.routes[index - 1]!.metres) > SAFETY_TIE_METRES).length,
  }));
}

/**
 * Where a grade sits between direct and supersafe: the share of supersafe's saving in busy +
 * shared metres it keeps, and the share of supersafe's extra length it rides.
 */
export function tradeOff(totals: readonly GradeTotals[], grade: GradeTotals): { saving: number; detour: number } {
  const direct = totals[0]!;
  const supersafe = totals[totals.length - 1]!;
  return {
    saving: (direct.busyShared - grade.busyShared) / Math.max(1e-9, direct.busyShared - supersafe.busyShared),
    detour: (grade.metres - direct.metres) / Math.max(1e-9, supersafe.metres - direct.metres),
  };
}

/** Pairs whose supersafe route itself has more busy + shared metres than their direct route: a step no grade between can take back. */
export const endsDisagree = (pairs: readonly GradedPair[]): number =>
  pairs.filter((pair) => pair.routes[pair.routes.length - 1]!.busyShared > pair.routes[0]!.busyShared + SAFETY_TIE_METRES).length;

/** Violations on steps into supersafe of pairs whose two ends disagree (`endsDisagree`), and the rest. */
export function splitViolations(pairs: readonly GradedPair[], violations: readonly MonotonicityViolation[]): { ofTheEnds: number; between: number } {
  const disagreeing = new Set(pairs.flatMap((pair, index) => (pair.routes[pair.routes.length - 1]!.busyShared > pair.routes[0]!.busyShared + SAFETY_TIE_METRES ? [index] : [])));
  const ofTheEnds = violations.filter((violation) => disagreeing.has(violation.pair) && violation.higher === 1).length;
  return { ofTheEnds, between: violations.length - ofTheEnds };
}

/**
 * The benchmark's section (BENCH_SECTIONS=graded-safety): per city, `count` seeded pairs routed
 * at every grade, the steps that are not monotone, each grade against both ends, and `balanced`
 * against what the map allows (route-quality.ts's frontier) on the first `frontierPairs`.
 */
export function gradedSafetySection(emit: (line?: string) => void, table: (rows: string[][]) => void, options: { count: number; seed: number; frontierPairs: number }): void {
  const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
  const balancedIndex = SWEPT_GRADES.indexOf(SAFETY_GRADES.balanced);
  emit('## Graded safety');
  emit();
  emit(
    `Measured by \`BENCH_SECTIONS=graded-safety npm run bench\` (\`test/bench/graded-safety.ts\`) on ${measuredOn()} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ` +
      `load average ${loadavg()[0]!.toFixed(2)} at the start; figures of the routes, and CPU time, which a busy machine disturbs less than wall time): ` +
      `${options.count} random pairs of cycling-network nodes 1 to 4 km apart per city (seed ${options.seed}, the route-quality pairs), departure ${EVENING_DEPARTURE.replace('T', ' ')}, ` +
      `each routed at safety ${SWEPT_GRADES.join(', ')} as the directions endpoint plans them (\`balanced\` is ${SAFETY_GRADES.balanced}). ` +
      `A step is not monotone when the next grade's route has more than ${SAFETY_TIE_METRES} m more busy + shared metres or more than ${SAFETY_TIE_METRES} m less length. ` +
      'Saving: the share of supersafe\'s saving in busy + shared metres over direct that the grade keeps; detour: the share of supersafe\'s extra length it rides (both summed over the pairs). ' +
        'CPU time per route: snapping, every search of the leg (a grade between searches supersafe, direct and each quarter up to it) and guidance, in this process alone.',
  );
  emit();
  const rows = [['City', 'Pairs', 'Steps not monotone', 'of them into supersafe where supersafe has more busy + shared than direct', ...SWEPT_GRADES.slice(1, -1).map((grade) => `${grade}: saving / detour`), `CPU ms per route, safety ${SWEPT_GRADES.join(' / ')}`]];
  const frontierRows = [['City', 'Pairs', 'Length over shortest p50: direct / balanced / supersafe', 'Busy + shared: direct / balanced / supersafe', 'Fewest within 1.05x', 'within 1.3x']];
  const knees = new Map<number, number>();
  for (const city of cityIds) {
    const pointer = parseGraphPointer(readFileSync(join(graphOutputDir(), currentPointerKey(city)), 'utf8'));
    const { loaded } = loadMeasured(city, readFileSync(join(graphOutputDir(), pointer.key)));
    const cpuMicroseconds: number[] = [];
    const pairs = sweepPairs(city, loaded, { count: options.count, seed: options.seed, cpuMicroseconds });
    const violations = monotonicityViolations(pairs);
    const { ofTheEnds } = splitViolations(pairs, violations);
    const totals = gradeTotals(pairs);
    const tradeOffs = totals.slice(1, -1).map((grade) => tradeOff(totals, grade));
    tradeOffs.forEach(({ saving, detour }, index) => knees.set(SWEPT_GRADES[index + 1]!, (knees.get(SWEPT_GRADES[index + 1]!) ?? 0) + saving - detour));
    rows.push([
      city,
      String(pairs.length),
      String(violations.length),
      `${ofTheEnds} (${endsDisagree(pairs)} pairs)`,
      ...tradeOffs.map(({ saving, detour }) => `${percent(saving)} / ${percent(detour)}`),
      cpuMicroseconds.map((micros) => (micros / 1000 / Math.max(1, pairs.length)).toFixed(2)).join(' / '),
    ]);
    const context = benchContext(city, loaded);
    const direct = costingFor(context, { profile: 'cycling', supersafe: false, night: false });
    const measured = pairs.slice(0, options.frontierPairs).map((pair) => ({ pair, frontier: pairFrontier(direct, context, pair.from, pair.to) })).filter((entry) => entry.frontier !== null);
    const share = (index: number) => measured.reduce((sum, { pair }) => sum + pair.routes[index]!.busyShared, 0) / Math.max(1, measured.reduce((sum, { pair }) => sum + pair.routes[index]!.metres, 0));
    const overShortest = (index: number) => percentile(measured.map(({ pair, frontier }) => pair.routes[index]!.metres / frontier!.shortest), 50).toFixed(3);
    const fewest = (budget: number) => {
      const points = measured.map(({ frontier }) => frontier!.busyShared[budget]!).filter((point) => Number.isFinite(point.metres));
      return percent(points.reduce((sum, point) => sum + point.stressful, 0) / Math.max(1, points.reduce((sum, point) => sum + point.metres, 0)));
    };
    const last = SWEPT_GRADES.length - 1;
    frontierRows.push([
      city,
      String(measured.length),
      `${overShortest(0)}x / ${overShortest(balancedIndex)}x / ${overShortest(last)}x`,
      `${percent(share(0))} / ${percent(share(balancedIndex))} / ${percent(share(last))}`,
      fewest(0),
      fewest(1),
    ]);
    console.log(`  ${city} done (load average ${loadavg()[0]!.toFixed(2)})`);
  }
  table(rows);
  emit();
  const knee = [...knees.entries()].sort((a, b) => b[1] - a[1])[0]!;
  emit(
    `The grade that keeps the most of supersafe's saving for the least of its detour (saving minus detour, summed over the cities) is ${knee[0]}; \`balanced\` is ${SAFETY_GRADES.balanced}. ` +
      'Steps into supersafe can only fail to be monotone where the spec\'s supersafe route itself has more busy + shared metres than the direct one (it avoids moderate roads of high stress too): no grade between can take that step back, and supersafe is what safety 1 must answer.',
  );
  emit();
  emit(`\`balanced\` against what the map allows (\`test/bench/frontier.ts\`) on the first ${options.frontierPairs} pairs of each city: length over the shortest route, median; busy + shared as shares of all route metres; the fewest busy + shared metres of any route within 1.05 and 1.3 times the shortest, as a share of those routes' metres.`);
  emit();
  table(frontierRows);
  emit();
  emit(`Load average at the end: ${loadavg()[0]!.toFixed(2)}.`);
  emit();
}
