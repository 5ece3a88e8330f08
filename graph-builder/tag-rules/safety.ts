import { SAFETY_BUSY, SAFETY_CYCLEWAY, SAFETY_MODERATE, SAFETY_QUIET, SAFETY_SHARED } from '../../core/graph/flags.ts';
import type { Tags } from '../osm/types.ts';
import type { Infrastructure } from './cycle-infrastructure.ts';
import { STRESS_FAST_KMH } from './traffic-stress.ts';

/** The safety class (spec 1.1) of riding a road one way or a path, and what cycle and walking routes change. */

/** Limits at or above this make a road one class busier (40 mph, or 60 km/h signed limits). */
const FAST_KMH = 60;
/** Carriageway lanes (both directions) at or above these make a road busy, or moderate. */
const LANES_BUSY = 4;
const LANES_MODERATE = 3;

/**
 * Safety class of riding in a road's carriageway one way (spec 1.1), before cycle routes: the
 * highway's base class, made busier by speed or width, then calmed by cycle infrastructure in
 * that direction. A protected track or a cycle street makes it `cycleway`; a painted lane or
 * shared bus lane takes a busy road down to `moderate`, unless the road is tagged as fast as LTS
 * rates a painted lane 4 (65 km/h).
 */
export function roadSafetyRule(baseSafety: number, maxspeedKmh: number | null, lanes: number | null, infrastructure: Infrastructure, cycleStreet: boolean): number {
  if (cycleStreet || infrastructure === 'track') return SAFETY_CYCLEWAY;
  let safety = baseSafety;
  const fast = maxspeedKmh !== null && maxspeedKmh >= FAST_KMH - 0.5;
  if (fast) safety = safety === SAFETY_QUIET ? SAFETY_MODERATE : SAFETY_BUSY;
  if (lanes !== null && lanes >= LANES_BUSY && safety === SAFETY_MODERATE) safety = SAFETY_BUSY;
  if (lanes !== null && lanes >= LANES_MODERATE && safety === SAFETY_QUIET) safety = SAFETY_MODERATE;
  // LTS rates a painted lane beside traffic of 65 km/h or more 4, as stressful as no lane: on a
  // road tagged that fast a lane calms nothing, and the road stays busy.
  const laneIsStress4 = maxspeedKmh !== null && maxspeedKmh >= STRESS_FAST_KMH;
  if ((infrastructure === 'lane' || infrastructure === 'share_busway') && safety === SAFETY_BUSY && !laneIsStress4) safety = SAFETY_MODERATE;
  return safety;
}

/**
 * Safety class of a path. Cycleways and paths are `cycleway` when pedestrians are kept apart
 * (segregated=yes, or walking not allowed); paths pedestrians share are `shared`.
 */
export function pathSafetyRule(highway: string, tags: Tags, walkingAllowed: boolean): number {
  const segregated = tags.segregated === 'yes';
  if (highway === 'cycleway' || highway === 'path') {
    if (highway === 'path' && tags.bicycle !== 'designated') return SAFETY_SHARED;
    return segregated || !walkingAllowed ? SAFETY_CYCLEWAY : SAFETY_SHARED;
  }
  return segregated && tags.bicycle === 'designated' ? SAFETY_CYCLEWAY : SAFETY_SHARED;
}

/**
 * Route relations (applied after all relations are read): a quiet road on a signed cycle route is
 * `cycleway` (spec 1.1), and a path on a walking route is `shared`, because pedestrians are
 * expected on it, unless they are kept apart (segregated, or `foot=no`: the route's walkers have
 * a path of their own beside it, as along much of the Hudson River Greenway).
 */
export function routeMembershipRule(safety: number, kind: 'road' | 'path', onCycleRoute: boolean, onFootRoute: boolean, pedestriansKeptApart: boolean): number {
  if (onCycleRoute && kind === 'road' && safety === SAFETY_QUIET) return SAFETY_CYCLEWAY;
  if (onFootRoute && kind === 'path' && safety === SAFETY_CYCLEWAY && !pedestriansKeptApart) return SAFETY_SHARED;
  return safety;
}
