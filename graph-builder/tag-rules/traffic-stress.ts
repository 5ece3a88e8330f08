import type { Tags } from '../osm/types.ts';
import type { Warnings } from '../warnings.ts';
import type { Infrastructure } from './cycle-infrastructure.ts';

/** The traffic a rider meets (speed limit, lanes, parking) and its Level of Traffic Stress per direction. */

/** Named speed limits (km/h). Bare numbers are km/h, as OSM defines. */
export const MAXSPEED_NAMED: Readonly<Record<string, number>> = {
  walk: 6, none: 130, 'GB:nsl_single': 96, 'GB:nsl_dual': 112, 'GB:motorway': 112, 'GB:nsl_restricted': 48,
  'UK:nsl_single': 96, 'UK:nsl_dual': 112, 'UK:motorway': 112, 'US:urban': 40, 'US:rural': 88,
};
/** Values that say the limit is not a number; no default, no warning. */
const MAXSPEED_NOT_NUMERIC = new Set(['signals', 'variable', 'implicit', 'unknown']);

/**
 * Level of Traffic Stress (Mekuria, Furth and Nixon 2012, Mineta Transportation Institute report
 * 11-19), read from OSM tags the way BikeOttawa's stressmodel reads them, per direction of travel.
 * An untagged speed limit is 50 km/h, or 80 on trunk, primary and secondary roads (the stressmodel's
 * reading); untagged lanes are one a direction.
 */
const STRESS_DEFAULT_KMH = 50;
const STRESS_DEFAULT_MAJOR_KMH = 80;
const STRESS_MAJOR_DEFAULT_HIGHWAYS: ReadonlySet<string> = new Set(['trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link']);
/** Streets of local access, where traffic is light by design (the stressmodel's "residential"). */
const STRESS_LOCAL_HIGHWAYS: ReadonlySet<string> = new Set(['residential', 'unclassified', 'service', 'track', 'road']);
/** Roads that carry through traffic at any limit: never below LTS 3 in mixed traffic. */
const STRESS_ARTERIAL_HIGHWAYS: ReadonlySet<string> = new Set(['trunk', 'trunk_link', 'primary', 'primary_link']);
/** Limits (km/h, with half a unit for mph conversions) where the criteria step. */
const STRESS_SLOW_KMH = 32.5; // 20 mph and 30 km/h zones
const STRESS_MODERATE_KMH = 40.5; // 25 mph
const STRESS_URBAN_KMH = 50.5; // 30 mph, 50 km/h
/** Painted lanes rate 3 from 50 km/h (30 mph, 48 km/h, stays below). */
const STRESS_PAINTED_URBAN_KMH = 49.5;
export const STRESS_FAST_KMH = 64.5; // 40 mph and above
/** Values of parking:lane:* (older scheme) and parking:* (newer) that mean cars park along the carriageway. */
const PARKING_LANE_VALUES: ReadonlySet<string> = new Set(['parallel', 'diagonal', 'perpendicular', 'marked', 'yes', 'lane', 'street_side', 'on_kerb', 'half_on_kerb', 'shoulder']);

/** A speed limit in km/h, or null when absent, not numeric, or unparseable (counted). */
export function maxspeedRule(tags: Tags, warnings: Warnings): number | null {
  const raw = tags.maxspeed ?? tags['maxspeed:forward'] ?? tags['maxspeed:backward'];
  if (raw === undefined) return null;
  let fastest: number | null = null;
  for (const part of raw.split(';')) {
    const value = part.trim();
    let kmh: number | null = null;
    const named = MAXSPEED_NAMED[value];
    const numeric = /^(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph|knots)?$/i.exec(value);
    const zone = /^[A-Z]{2}:(?:zone|zone:|urban:)?(\d+)$/i.exec(value);
    if (named !== undefined) kmh = named;
    else if (numeric) kmh = Number(numeric[1]) * (numeric[2]?.toLowerCase() === 'mph' ? 1.609 : numeric[2]?.toLowerCase() === 'knots' ? 1.852 : 1);
    else if (zone) kmh = Number(zone[1]) * (/^(GB|UK|US):/i.test(value) ? 1.609 : 1);
    else if (MAXSPEED_NOT_NUMERIC.has(value)) continue;
    else {
      warnings.count('ways with unparseable maxspeed (ignored)', raw);
      return null;
    }
    fastest = fastest === null ? kmh : Math.max(fastest, kmh);
  }
  return fastest;
}

/** Total carriageway lanes, or null when absent or unparseable (counted). */
export function lanesRule(tags: Tags, warnings: Warnings): number | null {
  const raw = tags.lanes;
  if (raw === undefined) return null;
  const values = raw.split(';').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value <= 0)) {
    warnings.count('ways with unparseable lanes (ignored)', raw);
    return null;
  }
  return Math.max(...values);
}

/**
 * Motor-traffic lanes beside a rider travelling one way along a road: `lanes:forward` or
 * `lanes:backward` where tagged; every lane of a one-way road (ridden with the traffic or, on a
 * contraflow, against it); half the lanes of a two-way road (`totalLanes`, `lanesRule`), rounded
 * up. Null when untagged.
 */
export function lanesPerDirectionRule(tags: Tags, totalLanes: number | null, motorOneway: -1 | 0 | 1, direction: 'forward' | 'backward'): number | null {
  const tagged = Number(tags[`lanes:${direction}`]);
  if (Number.isFinite(tagged) && tagged > 0) return tagged;
  const total = totalLanes;
  if (total === null) return null;
  return motorOneway !== 0 ? total : Math.ceil(total / 2);
}

/** Cars park along the carriageway (`parking=yes`, `parking:lane:<side>` or `parking:<side>` in either scheme). */
export function parkingRule(tags: Tags): boolean {
  if (tags.parking === 'yes') return true;
  for (const side of ['both', 'left', 'right']) {
    for (const key of [`parking:lane:${side}`, `parking:${side}`]) {
      const value = tags[key];
      if (value !== undefined && PARKING_LANE_VALUES.has(value)) return true;
    }
  }
  return false;
}

/** What the Level of Traffic Stress of riding a road one way is read from. */
export interface StressFacts {
  readonly highway: string;
  /** Tagged limit, km/h (null: the highway's default). */
  readonly maxspeedKmh: number | null;
  /** Motor lanes in this direction (null: one). */
  readonly lanes: number | null;
  readonly infrastructure: Infrastructure;
  readonly parking: boolean;
  /** `motor_vehicle=no` (or `motorcar=no` with it): no motor traffic mixes with the rider. */
  readonly noMotorTraffic: boolean;
  readonly cycleStreet: boolean;
}

/**
 * Level of Traffic Stress (1-4) of riding a road one way. Separated tracks (painted lanes with a
 * physical separation count) and roads without motor traffic are 1, living streets 1, cycle
 * streets 2. Painted lanes and shared bus lanes: 3 with two or more lanes of traffic beside them,
 * else by the limit: 4 from 65 km/h, 3 from 50, 2 above 40 (3 where cars park beside the lane),
 * and at 40 or below 1 on a local street, 2 elsewhere. Mixed traffic: 4 with three or more lanes a
 * direction, or above 50 km/h; with two lanes 3 up to 40 km/h, else 4; with one, 2 on local streets,
 * 3 on trunk and primary roads, and on other roads 2 at 20 mph (30 km/h zones) and 3 above.
 */
export function trafficStressRule(facts: StressFacts): number {
  const { highway, infrastructure } = facts;
  if (infrastructure === 'track' || facts.noMotorTraffic || highway === 'living_street') return 1;
  if (facts.cycleStreet) return 2;
  const kmh = facts.maxspeedKmh ?? (STRESS_MAJOR_DEFAULT_HIGHWAYS.has(highway) ? STRESS_DEFAULT_MAJOR_KMH : STRESS_DEFAULT_KMH);
  const lanes = facts.lanes ?? 1;
  const local = STRESS_LOCAL_HIGHWAYS.has(highway);
  if (infrastructure === 'lane' || infrastructure === 'share_busway') {
    if (kmh >= STRESS_FAST_KMH) return 4;
    if (lanes >= 2 || kmh >= STRESS_PAINTED_URBAN_KMH) return 3;
    if (kmh > STRESS_MODERATE_KMH) return facts.parking ? 3 : 2;
    return local ? 1 : 2;
  }
  if (lanes >= 3 || kmh > STRESS_URBAN_KMH) return 4;
  if (lanes === 2) return kmh <= STRESS_MODERATE_KMH ? 3 : 4;
  if (local) return 2;
  if (STRESS_ARTERIAL_HIGHWAYS.has(highway)) return 3;
  return kmh <= STRESS_SLOW_KMH ? 2 : 3;
}

/**
 * Level of Traffic Stress of a path: 1, apart from motor traffic (the stressmodel's separated
 * paths), except a crossing of a carriageway, 2.
 */
export function pathStressRule(tags: Tags): number {
  return tags.footway === 'crossing' || tags.cycleway === 'crossing' || tags.path === 'crossing' ? 2 : 1;
}
