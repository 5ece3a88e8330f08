import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { localMinutes } from '../../core/local-time.ts';
import { searchLeg } from '../../core/routing/planning/leg.ts';
import { snapForCosting } from '../../core/routing/snap/snap.ts';
import { percentile } from './measure.ts';
import { coordinatePairs } from './routino.ts';

/**
 * Walking beside cycling on one city's seeded coordinate pairs (`coordinatePairs`, the pairs the
 * Routino comparison routes): per pair, both ends snapped for the costing (`snapForCosting`) and
 * the leg searched as every endpoint searches it (`searchLeg`: a direct cycling leg is two
 * searches, its own and the supersafe one it may not be longer than). The three profiles run one
 * after the other on each pair, so a busy machine slows them alike; one warm-up round, then
 * `rounds` timed ones.
 */

export const WALKING_PROFILES = ['walking', 'cycling supersafe', 'cycling direct'] as const;
export type WalkingProfile = (typeof WALKING_PROFILES)[number];

export interface ProfileRun {
  /** Snap + search per routed pair and round, ms. */
  milliseconds: number[];
  /** The same in CPU time (this process's user + system): steadier on a shared machine. */
  cpuMilliseconds: number[];
  settled: number[];
  unrouted: number;
}

const departureMinute = localMinutes(2026, 6, 15, 12, 0);

const optionsOf = (profile: WalkingProfile) => ({
  profile: profile === 'walking' ? 'walking' as const : 'cycling' as const,
  supersafe: profile === 'cycling supersafe',
  night: false,
  departureMinute,
});

export function walkingBesideCycling(loaded: LoadedGraph, pairCount: number, seed: number, rounds = 2): Record<WalkingProfile, ProfileRun> {
  const pairs = coordinatePairs(loaded, pairCount, seed);
  const costings = WALKING_PROFILES.map((profile) => createCosting(loaded.network, optionsOf(profile)));
  const run = (): ProfileRun => ({ milliseconds: [], cpuMilliseconds: [], settled: [], unrouted: 0 });
  const runs: Record<WalkingProfile, ProfileRun> = { 'walking': run(), 'cycling supersafe': run(), 'cycling direct': run() };
  for (let round = 0; round <= rounds; round++) {
    for (const [from, to] of pairs) {
      WALKING_PROFILES.forEach((profile, i) => {
        const costing = costings[i]!;
        const effort = { settled: 0 };
        const cpuStarted = process.cpuUsage();
        const started = performance.now();
        const start = snapForCosting(costing, from, 'from');
        const end = snapForCosting(costing, to, 'to');
        const result = start && end ? searchLeg(costing, loaded.workspace, start, end, undefined, effort) : null;
        const elapsed = performance.now() - started;
        const cpu = process.cpuUsage(cpuStarted);
        if (round === 0) return;
        if (!result) {
          runs[profile].unrouted++;
          return;
        }
        runs[profile].milliseconds.push(elapsed);
        runs[profile].cpuMilliseconds.push((cpu.user + cpu.system) / 1000);
        runs[profile].settled.push(effort.settled);
      });
    }
  }
  return runs;
}

/** The table row of one profile: CPU and wall p50 / p95 ms, states settled p50 / p95, and CPU p95 against a reference run's. */
export function profileRow(city: string, profile: WalkingProfile, run: ProfileRun, reference: ProfileRun): string[] {
  const cpuP95 = percentile(run.cpuMilliseconds, 95);
  return [
    city,
    profile,
    String(run.milliseconds.length),
    `${percentile(run.cpuMilliseconds, 50).toFixed(2)} / ${cpuP95.toFixed(2)}`,
    `${percentile(run.milliseconds, 50).toFixed(2)} / ${percentile(run.milliseconds, 95).toFixed(2)}`,
    `${percentile(run.settled, 50).toLocaleString('en')} / ${percentile(run.settled, 95).toLocaleString('en')}`,
    `${(cpuP95 / percentile(reference.cpuMilliseconds, 95)).toFixed(1)}x`,
  ];
}
