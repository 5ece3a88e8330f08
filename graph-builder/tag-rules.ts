import { LIT_ASSUMED, LIT_NO, LIT_UNKNOWN, LIT_YES, ROAD_CLASSES, SAFETY_BUSY, SAFETY_CYCLEWAY, SAFETY_MODERATE, SAFETY_QUIET, SAFETY_SHARED, WALK_CARRIAGEWAY, WALK_CROSSING, WALK_PATH, WALK_PAVEMENT, type RoadClass } from '../core/graph/flags.ts';
import type { Profile } from '../core/graph/profiles.ts';
import type { Tags } from './osm/types.ts';
import { parseConditional } from './time-windows.ts';
import type { Warnings } from './warnings.ts';

/**
 * How OSM tags become routing attributes. Pure and table-driven: every rule is a small function
 * of a way's tags (plus the city's driving side) reading the tables below, and each has its own
 * fixture test in test/graph-builder/tag-rules.test.ts. Values a table does not know fall back to
 * the documented default and are counted in the build report (see docs/graph-format.md).
 */

export type DrivingSide = 'left' | 'right';

export interface RuleContext {
  readonly drivingSide: DrivingSide;
  /** The city has street-lighting data (spec 1.2.2): untagged public streets count as lit. */
  readonly lightingData: boolean;
  readonly warnings: Warnings;
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

type DefaultCycling = 'yes' | 'push' | 'no';

interface HighwayRule {
  readonly roadClass: RoadClass;
  /** Roads carry motor traffic; paths do not. */
  readonly kind: 'road' | 'path';
  /** Safety class of cycling in the carriageway, before speed, lanes and infrastructure. */
  readonly baseSafety: number;
  readonly cycling: DefaultCycling;
  readonly walking: boolean;
  readonly link?: boolean;
}

const road = (roadClass: RoadClass, baseSafety: number, link = false): HighwayRule => ({
  roadClass, kind: 'road', baseSafety, cycling: 'yes', walking: true, link,
});
const path = (roadClass: RoadClass, cycling: DefaultCycling, walking: boolean): HighwayRule => ({
  roadClass, kind: 'path', baseSafety: SAFETY_SHARED, cycling, walking,
});

/**
 * Routable highway values. Cycling defaults follow OSRM's bicycle profile: footways, pedestrian
 * streets and steps may be used pushing the bike (flagged dismount, walking pace) unless
 * bicycle=no. Walking on cycleways needs an explicit foot tag.
 */
export const HIGHWAYS: Readonly<Record<string, HighwayRule>> = {
  trunk: road('trunk', SAFETY_BUSY),
  trunk_link: road('trunk', SAFETY_BUSY, true),
  primary: road('primary', SAFETY_BUSY),
  primary_link: road('primary', SAFETY_BUSY, true),
  secondary: road('secondary', SAFETY_MODERATE),
  secondary_link: road('secondary', SAFETY_MODERATE, true),
  tertiary: road('tertiary', SAFETY_MODERATE),
  tertiary_link: road('tertiary', SAFETY_MODERATE, true),
  unclassified: road('unclassified', SAFETY_QUIET),
  residential: road('residential', SAFETY_QUIET),
  living_street: road('living_street', SAFETY_QUIET),
  service: road('service', SAFETY_QUIET),
  road: road('other', SAFETY_QUIET),
  track: road('track', SAFETY_QUIET),
  cycleway: path('cycleway', 'yes', false),
  path: path('path', 'yes', true),
  footway: path('footway', 'push', true),
  pedestrian: path('pedestrian', 'push', true),
  bridleway: path('bridleway', 'push', true),
  steps: path('steps', 'push', true),
  corridor: path('footway', 'no', true),
  elevator: path('footway', 'push', true),
};

/** Highway values that are not (yet, or no longer) ways anyone travels on: skipped, not warned about. */
export const NON_ROUTABLE_HIGHWAYS: ReadonlySet<string> = new Set([
  'motorway', 'motorway_link', 'proposed', 'planned', 'abandoned', 'disused', 'razed', 'dismantled', 'platform',
  'bus_stop', 'rest_area', 'services', 'raceway', 'bus_guideway', 'busway', 'escape', 'emergency_bay',
  'via_ferrata', 'no', 'turning_circle', 'turning_loop', 'traffic_island', 'emergency_access_point', 'crossing',
  'street_lamp', 'ladder',
]);

type AccessVerdict = 'allowed' | 'denied' | 'push';

/** Values of access, vehicle, bicycle and foot. */
export const ACCESS_VALUES: Readonly<Record<string, AccessVerdict>> = {
  yes: 'allowed', designated: 'allowed', permissive: 'allowed', destination: 'allowed', customers: 'allowed',
  delivery: 'allowed', official: 'allowed', discouraged: 'allowed', unknown: 'allowed', public: 'allowed',
  no: 'denied', private: 'denied', agricultural: 'denied', forestry: 'denied', permit: 'denied', residents: 'denied',
  use_sidepath: 'denied', restricted: 'denied', military: 'denied', emergency: 'denied',
  dismount: 'push',
};

/** Penalty class 0 (smooth) .. 3 (very rough). Spec 1.2.7: a cost, never a safety class. */
export const SURFACE_PENALTY: Readonly<Record<string, number>> = {
  asphalt: 0, paved: 0, concrete: 0, 'concrete:lanes': 1, 'concrete:plates': 1, paving_stones: 0, chipseal: 0,
  metal: 0, wood: 1, rubber: 0, tartan: 0, acrylic: 0, brick: 1, bricks: 1, clay: 2, metal_grid: 1,
  sett: 1, cobblestone: 2, unhewn_cobblestone: 3, stone: 2, grass_paver: 2, stepping_stones: 3,
  compacted: 1, fine_gravel: 1, gravel: 2, pebblestone: 2, unpaved: 2, ground: 2, dirt: 2, earth: 2,
  grass: 3, mud: 3, sand: 3, woodchips: 3, rock: 3, artificial_turf: 2, ice: 3, snow: 3, salt: 3,
};

export const SMOOTHNESS_PENALTY: Readonly<Record<string, number>> = {
  excellent: 0, good: 0, intermediate: 0, bad: 1, very_bad: 2, horrible: 3, very_horrible: 3, impassable: 3,
};

/** Surface penalty when no surface is tagged: tracks and paths are often unsealed. */
const DEFAULT_SURFACE_PENALTY: Readonly<Partial<Record<RoadClass, number>>> = { track: 1, path: 1, bridleway: 2 };

export const LIT_VALUES: Readonly<Record<string, number>> = {
  yes: LIT_YES, '24/7': LIT_YES, automatic: LIT_YES, limited: LIT_YES, interval: LIT_YES, 'sunset-sunrise': LIT_YES,
  'dusk-dawn': LIT_YES, operating_times: LIT_YES, night: LIT_YES, sunset: LIT_YES,
  no: LIT_NO, disused: LIT_NO, none: LIT_NO,
};

/** Cycle infrastructure along a road, weakest first; the best one serving a direction counts. */
export const INFRASTRUCTURE = ['none', 'separate', 'shared_lane', 'share_busway', 'lane', 'track'] as const;
export type Infrastructure = (typeof INFRASTRUCTURE)[number];

const CYCLEWAY_VALUES: Readonly<Record<string, { infrastructure: Infrastructure; contraflow?: boolean }>> = {
  no: { infrastructure: 'none' }, none: { infrastructure: 'none' }, separate: { infrastructure: 'separate' },
  sidepath: { infrastructure: 'separate' }, use_sidepath: { infrastructure: 'separate' },
  shared_lane: { infrastructure: 'shared_lane' }, shared: { infrastructure: 'shared_lane' },
  share_busway: { infrastructure: 'share_busway' }, lane: { infrastructure: 'lane' }, track: { infrastructure: 'track' },
  opposite: { infrastructure: 'none', contraflow: true }, opposite_lane: { infrastructure: 'lane', contraflow: true },
  opposite_track: { infrastructure: 'track', contraflow: true },
  opposite_share_busway: { infrastructure: 'share_busway', contraflow: true },
  // Sub-types used on highway=cycleway itself, not road infrastructure.
  crossing: { infrastructure: 'none' }, sidewalk: { infrastructure: 'none' }, traffic_island: { infrastructure: 'none' },
  link: { infrastructure: 'none' }, asl: { infrastructure: 'none' },
};

/** Named speed limits (km/h). Bare numbers are km/h, as OSM defines. */
export const MAXSPEED_NAMED: Readonly<Record<string, number>> = {
  walk: 6, none: 130, 'GB:nsl_single': 96, 'GB:nsl_dual': 112, 'GB:motorway': 112, 'GB:nsl_restricted': 48,
  'UK:nsl_single': 96, 'UK:nsl_dual': 112, 'UK:motorway': 112, 'US:urban': 40, 'US:rural': 88,
};
/** Values that say the limit is not a number; no default, no warning. */
const MAXSPEED_NOT_NUMERIC = new Set(['signals', 'variable', 'implicit', 'unknown']);

/** Limits at or above this make a road one class busier (40 mph, or 60 km/h signed limits). */
const FAST_KMH = 60;
/** Carriageway lanes (both directions) at or above these make a road busy, or moderate. */
const LANES_BUSY = 4;
const LANES_MODERATE = 3;

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
const STRESS_FAST_KMH = 64.5; // 40 mph and above
/** Values of parking:lane:* (older scheme) and parking:* (newer) that mean cars park along the carriageway. */
const PARKING_LANE_VALUES: ReadonlySet<string> = new Set(['parallel', 'diagonal', 'perpendicular', 'marked', 'yes', 'lane', 'street_side', 'on_kerb', 'half_on_kerb', 'shoulder']);

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

export interface HighwayResult {
  readonly highway: string;
  readonly rule: HighwayRule;
  readonly roadworks: boolean;
}

/**
 * Which highway rule applies. `highway=construction` stays routable as its `construction=*` type
 * with the roadworks flag (spec 1.2.6 avoids it with moderate emphasis); a road with a
 * `construction=*` tag keeps its type and gets the flag.
 */
export function highwayRule(tags: Tags, warnings: Warnings): HighwayResult | null {
  const highway = tags.highway;
  if (highway === undefined) return null;
  if (highway === 'construction') {
    const underlying = tags.construction;
    const rule = underlying !== undefined ? HIGHWAYS[underlying] : undefined;
    if (underlying !== undefined && !rule && NON_ROUTABLE_HIGHWAYS.has(underlying)) return null;
    return { highway: rule ? underlying! : 'unclassified', rule: rule ?? HIGHWAYS.unclassified!, roadworks: true };
  }
  const rule = HIGHWAYS[highway];
  if (!rule) {
    if (!NON_ROUTABLE_HIGHWAYS.has(highway)) warnings.count('ways with unknown highway value (skipped)', highway);
    return null;
  }
  const construction = tags.construction;
  const roadworks = construction !== undefined && construction !== 'no';
  return { highway, rule, roadworks };
}

/** An access tag's verdict, or undefined when the tag is absent; unknown values count and are ignored. */
export function accessValue(tags: Tags, key: string, warnings: Warnings): AccessVerdict | undefined {
  const raw = tags[key];
  if (raw === undefined) return undefined;
  const verdict = ACCESS_VALUES[raw.split(';')[0]!.trim()];
  if (verdict === undefined) warnings.count(`ways with unknown ${key} value (ignored)`, raw);
  return verdict;
}

/** The first verdict from the most specific key to the least specific. */
function mostSpecific(tags: Tags, keys: readonly string[], warnings: Warnings): AccessVerdict | undefined {
  for (const key of keys) {
    const verdict = accessValue(tags, key, warnings);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/**
 * Footways that run beside or across a carriageway a rider can use instead: a pavement drawn as
 * its own way, a crosswalk, a traffic island. Riding there is not allowed and pushing along them
 * is never the sensible way (the road is right there), so they are not part of the cycling
 * network unless a bicycle tag says otherwise.
 */
export const FOOTWAYS_BESIDE_THE_ROAD: ReadonlySet<string> = new Set(['sidewalk', 'crossing', 'traffic_island']);

/** Cycling access for the way as a whole: bicycle > vehicle > access > the highway default. */
export function cyclingAccessRule(tags: Tags, rule: HighwayRule, warnings: Warnings): DefaultCycling {
  const verdict = mostSpecific(tags, ['bicycle', 'vehicle', 'access'], warnings);
  if (verdict === 'denied') return 'no';
  if (verdict === 'push') return 'push';
  // access=yes on a footway does not make it rideable: only bicycle/vehicle can lift the default.
  const bicycleSpecific = tags.bicycle !== undefined || tags.vehicle !== undefined;
  if (verdict === 'allowed' && bicycleSpecific) return 'yes';
  const footwayKind = rule.roadClass === 'footway' || rule.roadClass === 'path' ? (tags.footway ?? tags.path) : undefined;
  if (footwayKind !== undefined && FOOTWAYS_BESIDE_THE_ROAD.has(footwayKind) && rule.cycling !== 'yes') return 'no';
  if (rule.roadClass === 'steps' && tags['ramp:bicycle'] === 'yes') return 'push';
  return rule.cycling;
}

/** One-way for motor traffic: 1 along the way, -1 against it, 0 both ways. */
export function onewayRule(tags: Tags, warnings: Warnings): -1 | 0 | 1 {
  const value = tags.oneway;
  if (value === undefined) {
    return tags.junction === 'roundabout' || tags.junction === 'circular' ? 1 : 0;
  }
  if (value === 'yes' || value === 'true' || value === '1') return 1;
  if (value === '-1' || value === 'reverse') return -1;
  if (value === 'no' || value === 'false' || value === '0' || value === 'alternating' || value === 'reversible') return 0;
  warnings.count('ways with unparseable oneway (treated as two-way)', value);
  return 0;
}

export interface SideInfrastructure {
  /** Best infrastructure serving travel along the way's direction. */
  readonly forward: Infrastructure;
  readonly backward: Infrastructure;
  /** Some cycleway tag allows riding against the motor one-way direction. */
  readonly contraflow: boolean;
}

const better = (a: Infrastructure, b: Infrastructure): Infrastructure =>
  INFRASTRUCTURE.indexOf(a) >= INFRASTRUCTURE.indexOf(b) ? a : b;

/**
 * Cycle infrastructure per travel direction from cycleway, cycleway:both/left/right and their
 * :oneway and :separation sub-keys. On a two-way road the lane on the driving side serves the
 * forward direction (left in London, right in the US); on a one-way road every lane serves the
 * motor direction unless tagged otherwise. A lane with a physical separation counts as a track.
 */
export function cyclewayRule(tags: Tags, motorOneway: -1 | 0 | 1, context: RuleContext): SideInfrastructure {
  let forward: Infrastructure = 'none';
  let backward: Infrastructure = 'none';
  let contraflow = false;
  const motorDirection = motorOneway === -1 ? 'backward' : 'forward';
  const serve = (direction: 'forward' | 'backward' | 'both', infrastructure: Infrastructure): void => {
    if (direction !== 'backward') forward = better(forward, infrastructure);
    if (direction !== 'forward') backward = better(backward, infrastructure);
  };
  const read = (key: string, side: 'left' | 'right' | 'both'): void => {
    const raw = tags[key];
    if (raw === undefined) return;
    const entry = CYCLEWAY_VALUES[raw.split(';')[0]!.trim()];
    if (!entry) {
      context.warnings.count('ways with unknown cycleway value (ignored)', `${key}=${raw}`);
      return;
    }
    let infrastructure = entry.infrastructure;
    const separation = tags[`${key}:separation`] ?? tags[`${key}:separation:left`] ?? tags[`${key}:separation:right`];
    if (infrastructure === 'lane' && separation !== undefined && separation !== 'no' && separation !== 'none') {
      infrastructure = 'track';
    }
    if (entry.contraflow) {
      contraflow = true;
      serve(motorDirection === 'forward' ? 'backward' : 'forward', infrastructure);
      return;
    }
    const sideOneway = tags[`${key}:oneway`];
    if (sideOneway === 'no') {
      if (motorOneway !== 0) contraflow = true;
      serve('both', infrastructure);
    } else if (sideOneway === '-1') {
      if (motorOneway !== 0) contraflow = true;
      serve(motorDirection === 'forward' ? 'backward' : 'forward', infrastructure);
    } else if (motorOneway !== 0) {
      serve(motorDirection, infrastructure);
    } else if (side === 'both') {
      serve('both', infrastructure);
    } else {
      serve(side === context.drivingSide ? 'forward' : 'backward', infrastructure);
    }
  };
  read('cycleway', 'both');
  read('cycleway:both', 'both');
  read('cycleway:left', 'left');
  read('cycleway:right', 'right');
  return { forward, backward, contraflow };
}

export interface CyclingDirections {
  readonly forward: boolean;
  readonly backward: boolean;
  /** The direction open to bicycles against the motor one-way (spec 1.2.5), if any. */
  readonly contraflow: 'forward' | 'backward' | null;
}

/**
 * Which directions bicycles may ride. Bicycle-specific rules override the general one-way
 * (spec 1.2.5): oneway:bicycle, contraflow cycleways (cycleway=opposite*, cycleway:*:oneway=-1|no)
 * and bicycle:forward/backward.
 */
export function cyclingDirectionsRule(tags: Tags, motorOneway: -1 | 0 | 1, infrastructure: SideInfrastructure, warnings: Warnings): CyclingDirections {
  let oneway: -1 | 0 | 1 = motorOneway;
  const bicycleOneway = tags['oneway:bicycle'];
  if (bicycleOneway !== undefined) {
    if (bicycleOneway === 'no' || bicycleOneway === 'false' || bicycleOneway === '0') oneway = 0;
    else if (bicycleOneway === 'yes' || bicycleOneway === 'true' || bicycleOneway === '1') oneway = motorOneway === -1 ? -1 : 1;
    else if (bicycleOneway === '-1') oneway = -1;
    else warnings.count('ways with unparseable oneway:bicycle (ignored)', bicycleOneway);
  } else if (infrastructure.contraflow) {
    oneway = 0;
  }
  const backwardVerdict = ACCESS_VALUES[tags['bicycle:backward'] ?? ''];
  const forwardVerdict = ACCESS_VALUES[tags['bicycle:forward'] ?? ''];
  if (motorOneway === 1 && backwardVerdict === 'allowed') oneway = 0;
  if (motorOneway === -1 && forwardVerdict === 'allowed') oneway = 0;
  let forward = oneway !== -1;
  let backward = oneway !== 1;
  if (forwardVerdict === 'denied') forward = false;
  if (backwardVerdict === 'denied') backward = false;
  const contraflow = motorOneway === 1 && backward ? 'backward' : motorOneway === -1 && forward ? 'forward' : null;
  return { forward, backward, contraflow };
}

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
 * Level of Traffic Stress of a path: 1, apart from motor traffic (the stressmodel's separated
 * paths), except a crossing of a carriageway, 2.
 */
export function pathStressRule(tags: Tags): number {
  return tags.footway === 'crossing' || tags.cycleway === 'crossing' || tags.path === 'crossing' ? 2 : 1;
}

/** Streets lit as a rule in cities with lighting data, when the way has no lit tag. */
const LIT_BY_DEFAULT: ReadonlySet<string> = new Set([
  'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary', 'tertiary_link',
  'unclassified', 'residential', 'living_street', 'pedestrian',
]);

export function litRule(tags: Tags, highway: string, context: RuleContext): number {
  const { warnings } = context;
  const raw = tags.lit;
  if (raw === undefined) return context.lightingData && LIT_BY_DEFAULT.has(highway) ? LIT_ASSUMED : LIT_UNKNOWN;
  const lit = LIT_VALUES[raw.trim()];
  if (lit !== undefined) return lit;
  // Lighting hours such as `Mo-Su 18:00-24:00` mean the way is lit at night.
  if (/\d{1,2}:\d{2}/.test(raw)) return LIT_YES;
  warnings.count('ways with unknown lit value (unknown)', raw);
  return LIT_UNKNOWN;
}

export function surfaceRule(tags: Tags, roadClass: RoadClass, warnings: Warnings): number {
  let penalty = DEFAULT_SURFACE_PENALTY[roadClass] ?? 0;
  const surface = tags.surface?.split(';')[0]!.trim();
  if (surface !== undefined) {
    const known = SURFACE_PENALTY[surface];
    if (known === undefined) warnings.count('ways with unknown surface (treated as smooth)', surface);
    penalty = known ?? 0;
  }
  const smoothness = tags.smoothness;
  if (smoothness !== undefined) {
    const known = SMOOTHNESS_PENALTY[smoothness];
    if (known === undefined) warnings.count('ways with unknown smoothness (ignored)', smoothness);
    else penalty = Math.max(penalty, known);
  }
  return penalty;
}

export interface WalkingResult {
  readonly allowed: boolean;
  readonly kind: number;
}

const sidewalkSides = (tags: Tags): string[] => {
  const general = tags.sidewalk ?? tags['sidewalk:both'];
  const sides: string[] = [];
  if (general !== undefined) {
    if (general === 'left' || general === 'right' || general === 'yes' || general === 'both') sides.push('yes');
    else sides.push(general.includes('separate') ? 'separate' : general);
  }
  for (const side of ['sidewalk:left', 'sidewalk:right']) {
    const value = tags[side];
    if (value !== undefined) sides.push(value.includes('separate') ? 'separate' : value);
  }
  return sides;
};

/**
 * The walking network (spec 1.2.10): footways, paths, pedestrian streets, steps and crossings;
 * the carriageway only where no separate pavement is mapped (sidewalk=separate or foot=use_sidepath
 * takes the road out of the walking network). One-way never applies to walking.
 */
export function walkingRule(tags: Tags, highway: string, rule: HighwayRule, warnings: Warnings): WalkingResult {
  const verdict = mostSpecific(tags, ['foot', 'access'], warnings);
  let allowed = rule.walking;
  if (verdict === 'denied') allowed = false;
  // access=yes does not open a cycleway to walkers; foot=* or a segregated path does.
  else if (verdict === 'allowed' && (tags.foot !== undefined || rule.kind === 'road')) allowed = true;
  if (highway === 'cycleway' && tags.segregated !== undefined && tags.foot !== 'no') allowed = true;
  if (highway === 'cycleway' || highway === 'footway' || highway === 'path') {
    const crossing = tags.footway === 'crossing' || tags.cycleway === 'crossing' || tags.path === 'crossing';
    return { allowed, kind: crossing ? WALK_CROSSING : WALK_PATH };
  }
  if (rule.kind === 'path' || highway === 'living_street' || highway === 'track') return { allowed, kind: WALK_PATH };
  const sides = sidewalkSides(tags);
  if (sides.includes('separate') && !sides.includes('yes')) allowed = false;
  return { allowed, kind: sides.includes('yes') ? WALK_PAVEMENT : WALK_CARRIAGEWAY };
}

const ROUTE_NETWORKS = ['icn', 'ncn', 'rcn', 'lcn'].map((network) => ({ key: network, refKey: `${network}_ref`, prefix: network.toUpperCase() }));

/** Signed cycle routes tagged on the way itself (lcn/rcn/ncn/icn=yes and their *_ref names). */
export function cycleRouteTagRule(tags: Tags): { signed: boolean; names: string[] } {
  const names: string[] = [];
  let signed = false;
  for (const { key, refKey, prefix } of ROUTE_NETWORKS) {
    if (tags[key] === 'yes') signed = true;
    const ref = tags[refKey];
    if (ref) {
      signed = true;
      names.push(`${prefix} ${ref}`);
    }
  }
  return { signed, names };
}

export interface TimeRule {
  readonly cycling: boolean;
  readonly walking: boolean;
  /** The opening_hours expression; closed while it is active, or while it is not (outsideWindow). */
  readonly condition: string;
  readonly outsideWindow: boolean;
  /**
   * The rule is the only reason the mode may use the way (`access=no` + `access:conditional=yes @ ...`).
   * If its condition cannot be parsed the way stays closed to that mode, as tagged without it.
   */
  readonly grantsAccess: boolean;
  /** The tag it came from, for the report and the graph's closure table. */
  readonly source: string;
}

/**
 * Time-limited closures (spec 1.2.6) from `<mode>:conditional` (the most specific key wins:
 * bicycle > vehicle > access for cycling; foot > access for walking) and `opening_hours`.
 * `no @ (window)` closes during the window; `yes @ (window)` on a way otherwise closed opens it
 * only during the window. Conditions are compiled (or rejected and counted) later.
 */
export function timeRulesRule(tags: Tags, cyclingDenied: boolean, walkingDenied: boolean): TimeRule[] {
  const rules: TimeRule[] = [];
  const fromConditional = (keys: readonly string[], denied: boolean, profile: Profile): void => {
    const key = keys.find((candidate) => tags[candidate] !== undefined);
    if (!key) return;
    for (const { value, condition } of parseConditional(tags[key]!)) {
      const verdict = ACCESS_VALUES[value];
      if (verdict === 'denied' && !denied) {
        rules.push({ cycling: profile === 'cycling', walking: profile === 'walking', condition, outsideWindow: false, grantsAccess: false, source: `${key}=${tags[key]}` });
      } else if (verdict === 'allowed' && denied) {
        rules.push({ cycling: profile === 'cycling', walking: profile === 'walking', condition, outsideWindow: true, grantsAccess: true, source: `${key}=${tags[key]}` });
      }
    }
  };
  fromConditional(['bicycle:conditional', 'vehicle:conditional', 'access:conditional'], cyclingDenied, 'cycling');
  fromConditional(['foot:conditional', 'access:conditional'], walkingDenied, 'walking');
  const hours = tags.opening_hours?.trim();
  if (hours && hours !== '24/7') {
    rules.push({ cycling: true, walking: true, condition: hours, outsideWindow: true, grantsAccess: false, source: `opening_hours=${hours}` });
  }
  // The same condition for both modes is one closure.
  const merged: TimeRule[] = [];
  for (const rule of rules) {
    const twin = merged.findIndex((other) => other.condition === rule.condition && other.outsideWindow === rule.outsideWindow && other.source === rule.source);
    if (twin >= 0) merged[twin] = { ...merged[twin]!, cycling: merged[twin]!.cycling || rule.cycling, walking: merged[twin]!.walking || rule.walking };
    else merged.push(rule);
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------
// The whole way
// ---------------------------------------------------------------------------------------------

export interface DirectionAttributes {
  readonly cycling: boolean;
  readonly dismount: boolean;
  readonly contraflow: boolean;
  readonly safety: number;
  readonly infrastructure: Infrastructure;
  /** Level of Traffic Stress 1-4 (`trafficStressRule`). */
  readonly stress: number;
}

export interface WayAttributes {
  readonly roadClass: number;
  readonly kind: 'road' | 'path';
  readonly link: boolean;
  readonly roundabout: boolean;
  readonly forward: DirectionAttributes;
  readonly backward: DirectionAttributes;
  readonly walking: boolean;
  readonly walkKind: number;
  readonly steps: boolean;
  readonly lit: number;
  readonly surfacePenalty: number;
  readonly roadworks: boolean;
  readonly name: string;
  readonly ref: string;
  readonly signedRoute: boolean;
  readonly routeNames: readonly string[];
  /** Pedestrians are kept off the rider's part of the path: `segregated=yes`, or `foot=no` (or another denial). */
  readonly pedestriansKeptApart: boolean;
  /** A pavement drawn as its own way (`footway=sidewalk`). */
  readonly sidewalk: boolean;
  readonly timeRules: readonly TimeRule[];
}

/** Every rule applied to one way; null when the way is not part of either network. */
export function classifyWay(tags: Tags, context: RuleContext): WayAttributes | null {
  const { warnings } = context;
  const highway = highwayRule(tags, warnings);
  if (!highway) return null;
  const { rule } = highway;
  const cyclingAccess = cyclingAccessRule(tags, rule, warnings);
  const walking = walkingRule(tags, highway.highway, rule, warnings);
  const timeRules = timeRulesRule(tags, cyclingAccess === 'no', !walking.allowed);
  const opensByTime = (profile: Profile): boolean => timeRules.some((r) => r[profile] && r.outsideWindow);
  const cyclingOpen = cyclingAccess !== 'no' || opensByTime('cycling');
  const walkingOpen = walking.allowed || opensByTime('walking');
  if (!cyclingOpen && !walkingOpen) return null;

  const motorOneway = onewayRule(tags, warnings);
  const infrastructure = rule.kind === 'road' ? cyclewayRule(tags, motorOneway, context) : { forward: 'none' as const, backward: 'none' as const, contraflow: false };
  const directions = cyclingDirectionsRule(tags, motorOneway, infrastructure, warnings);
  const maxspeed = rule.kind === 'road' ? maxspeedRule(tags, warnings) : null;
  const lanes = rule.kind === 'road' ? lanesRule(tags, warnings) : null;
  const cycleStreet = tags.bicycle_road === 'yes' || tags.cyclestreet === 'yes';
  const pathSafety = rule.kind === 'path' ? pathSafetyRule(highway.highway, tags, walkingOpen) : SAFETY_SHARED;
  // A way opened to bicycles only by a time rule is used as its highway default allows (pushing on a footway).
  const dismount = cyclingAccess === 'push' || (cyclingAccess === 'no' && rule.cycling === 'push');
  const parking = rule.kind === 'road' && parkingRule(tags);
  const noMotorTraffic = tags.motor_vehicle === 'no';
  const direction = (open: boolean, infra: Infrastructure, contraflow: boolean, way: 'forward' | 'backward'): DirectionAttributes => {
    const lanesThisWay = rule.kind === 'road' ? lanesPerDirectionRule(tags, lanes, motorOneway, way) : null;
    return {
      cycling: cyclingOpen && open,
      dismount,
      contraflow,
      infrastructure: infra,
      safety: rule.kind === 'road' ? roadSafetyRule(rule.baseSafety, maxspeed, lanes, infra, cycleStreet) : pathSafety,
      stress: rule.kind === 'road'
        ? trafficStressRule({ highway: highway.highway, maxspeedKmh: maxspeed, lanes: lanesThisWay, infrastructure: infra, parking, noMotorTraffic, cycleStreet })
        : pathStressRule(tags),
    };
  };
  const routeTags = cycleRouteTagRule(tags);
  return {
    roadClass: ROAD_CLASSES.indexOf(rule.roadClass),
    kind: rule.kind,
    link: rule.link === true,
    roundabout: tags.junction === 'roundabout' || tags.junction === 'circular',
    forward: direction(directions.forward, infrastructure.forward, directions.contraflow === 'forward', 'forward'),
    backward: direction(directions.backward, infrastructure.backward, directions.contraflow === 'backward', 'backward'),
    walking: walkingOpen,
    walkKind: walking.kind,
    steps: highway.highway === 'steps',
    lit: litRule(tags, highway.highway, context),
    surfacePenalty: surfaceRule(tags, rule.roadClass, warnings),
    roadworks: highway.roadworks,
    name: tags.name?.trim() ?? '',
    ref: tags.ref?.trim() ?? '',
    signedRoute: routeTags.signed,
    routeNames: routeTags.names,
    pedestriansKeptApart: tags.segregated === 'yes' || ACCESS_VALUES[tags.foot ?? ''] === 'denied',
    sidewalk: tags.footway === 'sidewalk',
    timeRules,
  };
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
