import type { CityId } from '../../core/cities/index.ts';
import { safetyClassOf, SAFETY_CLASSES } from '../../core/graph/flags.ts';
import type { LonLat } from '../../core/geo.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { cityGraph } from '../graphs/graph-store.ts';
import { PREFERRED_SNAP_METRES, segmentLabel, snapCandidates } from '../../core/routing/snap/snap.ts';
import type { LocatedRoad, ReportAnalysis } from './store.ts';

/**
 * Where a report is: the nearest road of the city's routing graph that a bike may use (the
 * cycling costing's `usable`), within the snapping distance routing uses. When the reporter named
 * the road, a road of that name a little farther away wins over a nearer one of another name: a
 * report at a junction is about the road the rider named. A report about riding a road (closed,
 * one-way, unsafe) is about a way a bike rides: where one is near, a pedestrian area or footway
 * beside it (where the bike would be pushed) is never the place, unless the reporter named it.
 */

/** Nearest segments considered (a park or a campus is many short path segments). */
const CANDIDATES = 48;
/** A road with the reported name this much farther than the nearest road still wins. */
export const NAMED_ROAD_MARGIN_METRES = 60;
/** Categories about riding a road, located on a way a bike rides whenever one is near. */
const RIDING_CATEGORIES: ReadonlySet<string> = new Set(['road_closed', 'road_unsafe']);

/** A road near a report, and whether a bike rides it (rather than being pushed along it). */
export interface NearbyRoad extends LocatedRoad {
  ridden: boolean;
}

export interface Location {
  road: LocatedRoad | null;
  roadNameCheck: ReportAnalysis['road_name_check'];
  unlocated: ReportAnalysis['unlocated'];
}

const ABBREVIATIONS: Readonly<Record<string, string>> = {
  st: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  blvd: 'boulevard',
  dr: 'drive',
  ln: 'lane',
  pl: 'place',
  sq: 'square',
  ct: 'court',
  cres: 'crescent',
  pkwy: 'parkway',
  hwy: 'highway',
  ter: 'terrace',
  terr: 'terrace',
  gdns: 'gardens',
  n: 'north',
  s: 'south',
  e: 'east',
  w: 'west',
};

/** A road name reduced for comparison: case, accents, punctuation and common abbreviations set aside. */
export function normaliseRoadName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(' ');
}

/** Whether a reporter's road name names the graph's road (one may carry a reference or a prefix the other lacks). */
export function sameRoad(reported: string, graphName: string): boolean {
  const a = normaliseRoadName(reported);
  const b = normaliseRoadName(graphName);
  if (!a || !b) return false;
  return a === b || ` ${b} `.includes(` ${a} `) || ` ${a} `.includes(` ${b} `);
}

/** The nearest usable roads around `location`, one entry per OSM way, nearest first. */
export function nearbyRoads(network: RoutingNetwork, location: LonLat): NearbyRoad[] {
  const costing = createCosting(network, { profile: 'cycling', supersafe: true, night: false, departureMinute: 0 });
  const usable = (edge: number) => costing.usable(edge);
  const graph = network.graph;
  const roads = new Map<number, NearbyRoad>();
  for (const candidate of snapCandidates(network, usable, location, CANDIDATES)) {
    const wayId = graph.segmentWayId[candidate.segment]!;
    if (roads.has(wayId)) continue;
    const forward = graph.segmentForwardEdge[candidate.segment]!;
    const edge = forward >= 0 && usable(forward) ? forward : graph.segmentBackwardEdge[candidate.segment]!;
    const backward = graph.segmentBackwardEdge[candidate.segment]!;
    roads.set(wayId, {
      way_id: wayId,
      name: segmentLabel(network, candidate.segment) || null,
      safety_class: SAFETY_CLASSES[safetyClassOf(graph.edgeFlags[edge]!)]!,
      distance_metres: Math.round(candidate.distanceMetres * 10) / 10,
      point: [round7(candidate.location[0]), round7(candidate.location[1])],
      ridden: (forward >= 0 && costing.travelsNormally(forward)) || (backward >= 0 && costing.travelsNormally(backward)),
    });
  }
  return [...roads.values()];
}

const round7 = (value: number) => Math.round(value * 1e7) / 1e7;

/**
 * Picks the road for a report among the nearby ones, and says how it compares with the reported
 * name. For a report about riding (`issueType` closed or unsafe), roads a bike rides come first:
 * the nearest of them and the named one among them win, when one is within the snapping
 * preference margin of the nearest road (as a rider there would be snapped onto it); a road the
 * bike is pushed along is the place only when the reporter named it and no ridden road of the
 * name is near, or when no ridden road is.
 */
export function chooseRoad(roads: readonly NearbyRoad[], reportedName: string | null, issueType: string | null = null): Location {
  const nearest = roads[0];
  if (!nearest) return { road: null, roadNameCheck: 'not_located', unlocated: 'no_road_nearby' };
  const ridden = roads.filter((road) => road.ridden && road.distance_metres <= nearest.distance_metres + PREFERRED_SNAP_METRES);
  const place = issueType !== null && RIDING_CATEGORIES.has(issueType) && ridden.length > 0 ? ridden[0]! : nearest;
  if (!reportedName) return { road: locatedRoad(place), roadNameCheck: 'not_given', unlocated: null };
  const named = (road: NearbyRoad) => road.name !== null && sameRoad(reportedName, road.name) && road.distance_metres <= place.distance_metres + NAMED_ROAD_MARGIN_METRES;
  const match = place === nearest ? roads.find(named) : (ridden.find(named) ?? roads.find(named));
  return match ? { road: locatedRoad(match), roadNameCheck: 'matches', unlocated: null } : { road: locatedRoad(place), roadNameCheck: 'differs', unlocated: null };
}

/** The road as the analysis stores it. */
const locatedRoad = ({ ridden: _ridden, ...road }: NearbyRoad): LocatedRoad => road;

/** Locates a report filed in `city`; throws GraphUnavailableError when the city's graph cannot be loaded. */
export async function locateReport(city: CityId, location: LonLat, reportedName: string | null, issueType: string | null = null): Promise<Location> {
  const { network } = await cityGraph(city);
  return chooseRoad(nearbyRoads(network, location), reportedName, issueType);
}
