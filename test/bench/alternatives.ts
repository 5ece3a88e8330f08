import type { CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { RouteBudgetExceededError } from '../../core/routing/errors.ts';
import { ALTERNATIVES } from '../../core/routing/planning/alternatives.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import { plannerFor } from '../support/alternative-routes.ts';
import { percentile } from './measure.ts';

/**
 * Alternative routes on one city's seeded coordinate pairs (`coordinatePairs`, the pairs the
 * Routino comparison routes): each pair planned as directions plans it, cycling at a weekday
 * noon, once without alternatives and once asking for ALTERNATIVES.maxCount, one after the other
 * so a busy machine slows both alike. Counts how many alternatives each pair has, their cost
 * ratio and shared share, and the CPU time and states settled of a request with and without.
 */

export interface AlternativesRun {
  city: CityId;
  supersafe: boolean;
  pairs: number;
  /** Requests routed, by how many alternatives they got (index 0 to maxCount). */
  byCount: number[];
  /** Requests refused for the compute budget with alternatives asked (routed without). */
  refused: number;
  costRatios: number[];
  sharedShares: number[];
  /** CPU milliseconds per routed request, without and with alternatives. */
  cpuWithout: number[];
  cpuWith: number[];
  statesWithout: number[];
  statesWith: number[];
}

const cpuMilliseconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

export function alternativesRun(context: RoutingContext, pairs: readonly [LonLat, LonLat][], supersafe: boolean): AlternativesRun {
  const run: AlternativesRun = {
    city: context.city.id, supersafe, pairs: pairs.length, byCount: new Array<number>(ALTERNATIVES.maxCount + 1).fill(0), refused: 0,
    costRatios: [], sharedShares: [], cpuWithout: [], cpuWith: [], statesWithout: [], statesWith: [],
  };
  const variant = { profile: 'cycling' as const, supersafe };
  for (const pair of pairs) {
    let planner = plannerFor(context, pair);
    let started = process.cpuUsage();
    const route = planner.route(variant, pair);
    const without = cpuMilliseconds(started);
    if (!route.legs) continue;
    const statesWithout = planner.budget.statesSettled - planner.budget.allowance.states;
    planner = plannerFor(context, pair);
    started = process.cpuUsage();
    try {
      const alternatives = planner.alternatives(variant, pair, planner.route(variant, pair), ALTERNATIVES.maxCount);
      run.cpuWith.push(cpuMilliseconds(started));
      run.cpuWithout.push(without);
      run.statesWithout.push(statesWithout);
      run.statesWith.push(planner.budget.statesSettled - planner.budget.allowance.states);
      run.byCount[alternatives.length]!++;
      for (const alternative of alternatives) {
        run.costRatios.push(alternative.costRatio);
        run.sharedShares.push(alternative.sharedShare);
      }
    } catch (error) {
      if (!(error instanceof RouteBudgetExceededError)) throw error;
      run.refused++;
    }
  }
  return run;
}

const p = (values: readonly number[], at: number, digits: number) => (values.length ? percentile(values, at).toFixed(digits) : '–');

/** The table's row for one run. */
export function alternativesRow(run: AlternativesRun): string[] {
  const routed = run.byCount.reduce((sum, count) => sum + count, 0);
  const share = (count: number) => `${((100 * count) / Math.max(1, routed)).toFixed(0)} %`;
  return [
    run.city,
    run.supersafe ? 'supersafe' : 'direct',
    String(routed),
    ...run.byCount.map(share),
    String(run.refused),
    `${p(run.costRatios, 50, 2)} / ${p(run.costRatios, 95, 2)}`,
    `${p(run.sharedShares, 50, 2)} / ${p(run.sharedShares, 95, 2)}`,
    `${p(run.cpuWithout, 50, 1)} / ${p(run.cpuWithout, 95, 1)}`,
    `${p(run.cpuWith, 50, 1)} / ${p(run.cpuWith, 95, 1)}`,
    `${p(run.statesWithout, 50, 0)} / ${p(run.statesWithout, 95, 0)}`,
    `${p(run.statesWith, 50, 0)} / ${p(run.statesWith, 95, 0)}`,
  ];
}

export const ALTERNATIVES_HEADER = [
  'City', 'Costing', 'Routed', '0 alt.', '1', '2', '3', 'Refused (budget)', 'Cost ratio p50 / p95', 'Shared p50 / p95',
  'CPU ms without p50 / p95', 'CPU ms with p50 / p95', 'States without p50 / p95', 'States with p50 / p95',
];
