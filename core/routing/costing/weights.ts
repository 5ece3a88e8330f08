import { createHash } from 'node:crypto';
import { CYCLING_SPEED_MPS, WALKING_SPEED_MPS } from './speeds.ts';

/**
 * The weights the costings apply, as data, and the fingerprint that identifies them (the hill
 * preference's, which never enter it, are beside `climbSeconds` in costing.ts). What each
 * cycling metric weighs beyond riding time: the two modes of spec 1.1, one object each, read by
 * the cycling costing (cycling-costing.ts). Direct is the shortest reasonable route: metres first,
 * with turns and junction waits weighed lightly so that it neither zigzags nor queues for nothing,
 * and pushing the bike kept for real shortcuts. Supersafe avoids traffic stress: riding time is
 * multiplied by the way's safety class and by its Level of Traffic Stress, and major crossings are
 * made at controlled junctions. docs/routing.md explains how the values were chosen.
 */

export interface CyclingWeights {
  /** Multiplier on riding time per safety class (quiet, cycleway, moderate, busy, shared). */
  readonly classFactors: readonly number[];
  /**
   * Multiplier on riding time per Level of Traffic Stress (index 0: not rated, then LTS 1 to 4),
   * on top of the class: two roads of one class are not equally stressful to ride.
   */
  readonly stressFactors: readonly number[];
  /** Seconds added per turn by how far the route turns (spec 1.2.8: prefer going straight). */
  readonly turnSeconds: { readonly straight: number; readonly slight: number; readonly turn: number; readonly sharp: number };
  /** Seconds added on arriving at a controlled junction, by control (signals, all-way stop, two-way stop, give way). */
  readonly controlSeconds: { readonly signals: number; readonly allWayStop: number; readonly twoWayStop: number; readonly giveWay: number };
  /** Crossing or joining a busy or moderate road where no signals or all-way stop govern the approach. */
  readonly uncontrolledCrossingSeconds: { readonly busy: number; readonly moderate: number };
  /**
   * Pushing the bike (footways, pedestrian streets, steps): a pushed metre costs its walking time
   * times `pushFactor` (`stepsPushFactor` carrying the bike up or down steps), and getting off the
   * bike to start pushing costs `dismountSeconds` once.
   */
  readonly pushFactor: number;
  readonly stepsPushFactor: number;
  readonly dismountSeconds: number;
}

/**
 * Supersafe (spec 1.1): prefers quiet roads and cycleways, takes moderate roads for a real saving,
 * avoids busy roads and shared paths unless there is no alternative within a sensible detour; of
 * two roads of a class, the one of lower stress (a 20 mph limit, one lane a direction, a painted
 * lane) wins. Pushing is a last resort: with these weights a push of L metres is chosen only over a
 * ride more than about 9 L + 125 m longer.
 */
export const SUPERSAFE_WEIGHTS: CyclingWeights = {
  classFactors: [1.0, 0.95, 1.5, 6.0, 4.5],
  stressFactors: [1.0, 1.0, 1.0, 1.2, 1.5],
  turnSeconds: { straight: 0, slight: 1.5, turn: 4, sharp: 7 },
  controlSeconds: { signals: 12, allWayStop: 6, twoWayStop: 5, giveWay: 2 },
  uncontrolledCrossingSeconds: { busy: 30, moderate: 8 },
  pushFactor: 3,
  stepsPushFactor: 5,
  dismountSeconds: 30,
};

/**
 * Direct: the shortest reasonable route. Every class and stress level rides at its length; a turn
 * or a junction wait weighs a few metres, enough to choose the straighter of two near-equal ways;
 * a pushed metre weighs about four ridden ones. The planner also holds direct to never be longer
 * than the supersafe route of the same trip (core/routing/planning/leg.ts).
 */
export const DIRECT_WEIGHTS: CyclingWeights = {
  classFactors: [1.0, 1.0, 1.0, 1.0, 1.0],
  stressFactors: [1.0, 1.0, 1.0, 1.0, 1.0],
  turnSeconds: { straight: 0, slight: 0.5, turn: 1, sharp: 2 },
  controlSeconds: { signals: 3, allWayStop: 1.5, twoWayStop: 1, giveWay: 0.5 },
  uncontrolledCrossingSeconds: { busy: 0, moderate: 0 },
  pushFactor: 1.5,
  stepsPushFactor: 3,
  dismountSeconds: 15,
};

/** At night where lighting is mapped: lit, public street assumed lit, unknown, unlit. */
export const NIGHT_LIGHTING_FACTORS = { lit: 1.0, assumed: 1.1, unknown: 1.4, unlit: 2.0 } as const;
/** Surface penalty 0 (smooth) .. 3 (very rough): avoided, but never reported as dangerous. */
export const SURFACE_FACTORS = [1.0, 1.25, 1.6, 2.2] as const;
/** Active roadworks: avoided with moderate emphasis (spec 1.2.6). */
export const ROADWORKS_FACTOR = 1.6;
/** Walking in the carriageway where no pavement is mapped: the fallback, not the preference. */
export const WALK_CARRIAGEWAY_FACTOR = 1.3;
/** Turning round at a dead end, the only place a U-turn is allowed. */
export const DEAD_END_U_TURN_SECONDS = 15;
/** Passing a barrier that lets bicycles through only pushed (kissing gate, cycle barrier). */
export const BARRIER_DISMOUNT_SECONDS = 15;

/**
 * Bump when a cost function changes shape (not just a weight above): with the weights, it makes
 * the fingerprint that graphs record for their precomputed search bounds.
 */
const COSTING_REVISION = 3;

/**
 * Identifies every input of the time-independent costs. A graph whose cost tables or landmark
 * tables were built under another fingerprint has them recomputed on load: stale costs would route
 * by old weights, and stale bounds could overestimate.
 */
export const COSTING_FINGERPRINT = createHash('sha256')
  .update(
    JSON.stringify([
      COSTING_REVISION,
      CYCLING_SPEED_MPS,
      WALKING_SPEED_MPS,
      SUPERSAFE_WEIGHTS,
      DIRECT_WEIGHTS,
      SURFACE_FACTORS,
      ROADWORKS_FACTOR,
      WALK_CARRIAGEWAY_FACTOR,
      DEAD_END_U_TURN_SECONDS,
      BARRIER_DISMOUNT_SECONDS,
    ]),
  )
  .digest('hex')
  .slice(0, 16);
