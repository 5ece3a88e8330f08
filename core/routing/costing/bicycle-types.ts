import { SEGMENT_COBBLES, SEGMENT_ROUGH, SEGMENT_UNPAVED } from '../../graph/flags.ts';
import { CYCLING_SPEED_MPS, EBIKE_SPEED_MPS } from './speeds.ts';
import { SURFACE_FACTORS } from './weights.ts';

/**
 * The bicycle types (`bicycle_type`, docs/routing.md "Bicycle types"), as data: how fast each
 * rides by surface and grade, which surfaces it avoids beyond riding them slower, what it can
 * never pass, and how much climbing weighs on it. The cycling costing (cycling-costing.ts) reads
 * one of these rows; durations in answers follow the same speeds (`ridingSpeed`). `hybrid` is the
 * spec's rider: 15 km/h whatever the surface and grade, every factor 1, so its routes and
 * durations are exactly those of a request without the field.
 */

export const BICYCLE_TYPES = ['hybrid', 'road', 'mountain', 'cargo', 'ebike'] as const;
export type BicycleType = (typeof BICYCLE_TYPES)[number];
export const DEFAULT_BICYCLE_TYPE: BicycleType = 'hybrid';

/** A way's surface as the types tell it apart (the worst of its ride flags: rough, then unpaved, then cobbles). */
export interface BySurface {
  readonly paved: number;
  readonly cobbles: number;
  readonly unpaved: number;
  readonly rough: number;
}

export interface BicycleTypeProfile {
  /** Metres per second on smooth, level, paved ground. */
  readonly cruiseSpeed: number;
  /** Multiplier on `cruiseSpeed` by surface. */
  readonly surfaceSpeed: BySurface;
  /**
   * Speed by grade (rise over run of the edge, its climb less its descent): uphill the speed
   * falls by `uphillLoss` per percent of grade down to `uphillFloor` times the cruise speed;
   * downhill it rises by `downhillGain` per percent up to `downhillCap` times.
   */
  readonly grade: { readonly uphillLoss: number; readonly uphillFloor: number; readonly downhillGain: number; readonly downhillCap: number };
  /** The surface penalty's cost factors (0 smooth .. 3 very rough), on top of the slower riding. */
  readonly surfacePenaltyFactors: readonly number[];
  /**
   * Cost multiplier by surface beyond its time: how much the rider avoids it. A road bike's are
   * large enough that a paved way round wins by far (the benchmark measures how far).
   */
  readonly surfaceAvoidance: BySurface;
  /** Multiplier on the hill preference's climbing cost (`avoid_hills`): an e-bike's motor does much of the climbing. */
  readonly climbWeight: number;
  /** Never used, not even pushed: steps, narrow barriers (NODE_BARRIER_NARROW) and ways under 1 m wide (SEGMENT_NARROW). */
  readonly never: { readonly steps: boolean; readonly narrow: boolean };
}

const FLAT = { uphillLoss: 0, uphillFloor: 1, downhillGain: 0, downhillCap: 1 } as const;
const EVERY_SURFACE_ALIKE: BySurface = { paved: 1, cobbles: 1, unpaved: 1, rough: 1 };
const NOTHING_FORBIDDEN = { steps: false, narrow: false } as const;

export const BICYCLE_TYPE_PROFILES: Readonly<Record<BicycleType, BicycleTypeProfile>> = {
  /** The spec's rider: 15 km/h on any surface and grade; surfaces cost their penalty factor alone. */
  hybrid: {
    cruiseSpeed: CYCLING_SPEED_MPS,
    surfaceSpeed: EVERY_SURFACE_ALIKE,
    grade: FLAT,
    surfacePenaltyFactors: SURFACE_FACTORS,
    surfaceAvoidance: EVERY_SURFACE_ALIKE,
    climbWeight: 1,
    never: NOTHING_FORBIDDEN,
  },
  /** Fast on asphalt, slow and unhappy on anything else: unpaved and rough ways cost ten times their time, cobbles four. */
  road: {
    cruiseSpeed: 18 / 3.6,
    surfaceSpeed: { paved: 1, cobbles: 0.7, unpaved: 0.6, rough: 0.6 },
    grade: { uphillLoss: 0.06, uphillFloor: 0.35, downhillGain: 0.03, downhillCap: 1.3 },
    surfacePenaltyFactors: SURFACE_FACTORS,
    surfaceAvoidance: { paved: 1, cobbles: 4, unpaved: 10, rough: 10 },
    climbWeight: 1,
    never: NOTHING_FORBIDDEN,
  },
  /** A little slower on asphalt, at home off it: surfaces barely cost beyond their time. */
  mountain: {
    cruiseSpeed: 14 / 3.6,
    surfaceSpeed: { paved: 1, cobbles: 0.9, unpaved: 0.95, rough: 0.85 },
    grade: { uphillLoss: 0.06, uphillFloor: 0.35, downhillGain: 0.02, downhillCap: 1.2 },
    surfacePenaltyFactors: [1.0, 1.05, 1.15, 1.4],
    surfaceAvoidance: EVERY_SURFACE_ALIKE,
    climbWeight: 1,
    never: NOTHING_FORBIDDEN,
  },
  /** Heavy and wide: slow, slower uphill, and never up steps, through a kissing gate or cycle barrier, or along a way under 1 m wide. */
  cargo: {
    cruiseSpeed: 12 / 3.6,
    surfaceSpeed: { paved: 1, cobbles: 0.7, unpaved: 0.75, rough: 0.6 },
    grade: { uphillLoss: 0.08, uphillFloor: 0.3, downhillGain: 0.01, downhillCap: 1.1 },
    surfacePenaltyFactors: SURFACE_FACTORS,
    surfaceAvoidance: EVERY_SURFACE_ALIKE,
    climbWeight: 1,
    never: { steps: true, narrow: true },
  },
  /** Assisted to the spec's e-bike speed, which hills barely slow; climbing weighs a third of a hybrid's. */
  ebike: {
    cruiseSpeed: EBIKE_SPEED_MPS,
    surfaceSpeed: { paved: 1, cobbles: 0.8, unpaved: 0.8, rough: 0.7 },
    grade: { uphillLoss: 0.015, uphillFloor: 0.7, downhillGain: 0, downhillCap: 1 },
    surfacePenaltyFactors: SURFACE_FACTORS,
    surfaceAvoidance: EVERY_SURFACE_ALIKE,
    climbWeight: 1 / 3,
    never: NOTHING_FORBIDDEN,
  },
};

/** Which of a `BySurface`'s entries a segment's ride flags select: the worst that applies. */
export function surfaceOf<T>(bySurface: { readonly paved: T; readonly cobbles: T; readonly unpaved: T; readonly rough: T }, rideFlags: number): T {
  if (rideFlags & SEGMENT_ROUGH) return bySurface.rough;
  if (rideFlags & SEGMENT_UNPAVED) return bySurface.unpaved;
  if (rideFlags & SEGMENT_COBBLES) return bySurface.cobbles;
  return bySurface.paved;
}

/** Grades beyond this (short edges over noisy heights) are read as this. */
const GRADE_LIMIT = 0.25;

/**
 * Metres per second the type rides an edge of `length` metres that climbs `ascent` and descends
 * `descent` metres, on a segment with ride flags `rideFlags`.
 */
export function ridingSpeed(profile: BicycleTypeProfile, rideFlags: number, length: number, ascent: number, descent: number): number {
  let speed = profile.cruiseSpeed * surfaceOf(profile.surfaceSpeed, rideFlags);
  const { grade } = profile;
  if (grade === FLAT || !(length > 0)) return speed;
  const percent = (Math.max(-GRADE_LIMIT, Math.min(GRADE_LIMIT, (ascent - descent) / length))) * 100;
  if (percent > 0) speed *= Math.max(grade.uphillFloor, 1 - grade.uphillLoss * percent);
  else if (percent < 0) speed *= Math.min(grade.downhillCap, 1 - grade.downhillGain * percent);
  return speed;
}
