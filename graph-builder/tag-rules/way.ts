import { ROAD_CLASSES, SAFETY_SHARED } from '../../core/graph/flags.ts';
import type { Profile } from '../../core/graph/profiles.ts';
import type { Tags } from '../osm/types.ts';
import { ACCESS_VALUES, cyclingAccessRule } from './access.ts';
import type { RuleContext } from './context.ts';
import { cyclewayRule, type Infrastructure } from './cycle-infrastructure.ts';
import { cycleRouteTagRule } from './cycle-routes.ts';
import { highwayRule } from './highways.ts';
import { litRule } from './lighting.ts';
import { cyclingDirectionsRule, onewayRule } from './one-way.ts';
import { pathSafetyRule, roadSafetyRule } from './safety.ts';
import { rideFlagsRule, surfaceRule } from './surface.ts';
import { timeRulesRule, type TimeRule } from './time-rules.ts';
import { lanesPerDirectionRule, lanesRule, maxspeedRule, parkingRule, pathStressRule, trafficStressRule } from './traffic-stress.ts';
import { walkingRule } from './walking.ts';

/**
 * How OSM tags become routing attributes. Pure and table-driven: every rule is a small function
 * of a way's tags (plus the city's driving side) reading the tables beside it, and each has its own
 * fixture test in test/graph-builder/tag-rules.test.ts. Values a table does not know fall back to
 * the documented default and are counted in the build report (see docs/graph-format.md).
 *
 * This module applies them all to one way (`classifyWay`, what the read stage calls); each concern
 * is a module of its own in this folder:
 *   context.ts               what every rule may read besides the tags (driving side, lighting data)
 *   highways.ts              routable highway values and their defaults
 *   access.ts                access, vehicle, bicycle and foot; cycling access for the whole way
 *   cycle-infrastructure.ts  cycleway lanes and tracks, and which direction each serves
 *   one-way.ts               one-way for motor traffic, and the directions bicycles may ride
 *   traffic-stress.ts        speed limit, lanes, parking, and the Level of Traffic Stress
 *   safety.ts                safety class of roads and paths, and what route relations change
 *   lighting.ts              lit, and the streets taken as lit where a city has lighting data
 *   surface.ts               surface and smoothness; unpaved, cobbled, rough and narrow for the bicycle types
 *   width.ts                 widths (`maxwidth`), and what a cargo bike does not fit through
 *   walking.ts               the walking network, pavements and crossings
 *   cycle-routes.ts          signed cycle routes tagged on the way
 *   time-rules.ts            conditional access and opening hours
 */

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
  /** SEGMENT_* bits (`rideFlagsRule`). */
  readonly rideFlags: number;
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
  const walking = walkingRule(tags, highway, warnings);
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
    rideFlags: rideFlagsRule(tags, rule.roadClass),
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
