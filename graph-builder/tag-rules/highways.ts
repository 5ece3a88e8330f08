import { SAFETY_BUSY, SAFETY_MODERATE, SAFETY_QUIET, SAFETY_SHARED, type RoadClass } from '../../core/graph/flags.ts';
import type { Tags } from '../osm/types.ts';
import type { Warnings } from '../warnings.ts';

/** Which highway values are routable, and what each is by default: its road class, road or path, base safety class and who may use it. */

export type DefaultCycling = 'yes' | 'push' | 'no';

export interface HighwayRule {
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

export interface HighwayResult {
  readonly highway: string;
  readonly rule: HighwayRule;
  readonly roadworks: boolean;
  /** `highway=construction`: the way itself is a building site, not a street with works on it. */
  readonly underConstruction: boolean;
}

/**
 * Which highway rule applies. `highway=construction` stays routable for cycling as its
 * `construction=*` type with the roadworks flag (spec 1.2.6 avoids it with moderate emphasis), and
 * is closed to walking unless `foot=*` opens it (walking.ts); a road with a `construction=*` tag
 * keeps its type and gets the flag.
 */
export function highwayRule(tags: Tags, warnings: Warnings): HighwayResult | null {
  const highway = tags.highway;
  if (highway === undefined) return null;
  if (highway === 'construction') {
    const underlying = tags.construction;
    const rule = underlying !== undefined ? HIGHWAYS[underlying] : undefined;
    if (underlying !== undefined && !rule && NON_ROUTABLE_HIGHWAYS.has(underlying)) return null;
    return { highway: rule ? underlying! : 'unclassified', rule: rule ?? HIGHWAYS.unclassified!, roadworks: true, underConstruction: true };
  }
  const rule = HIGHWAYS[highway];
  if (!rule) {
    if (!NON_ROUTABLE_HIGHWAYS.has(highway)) warnings.count('ways with unknown highway value (skipped)', highway);
    return null;
  }
  const construction = tags.construction;
  const roadworks = construction !== undefined && construction !== 'no';
  return { highway, rule, roadworks, underConstruction: false };
}
