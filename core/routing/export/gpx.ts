import { boundingBox, haversineMetres, type Position } from '../../geo.ts';
import type { Language } from '../../language.ts';
import { escapeXml } from '../../xml.ts';
import type { ElevationProfile, RouteBody } from '../planning/route-body.ts';
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };

/**
 * A directions answer as a GPX 1.1 document (https://www.topografix.com/GPX/1/1/), the file bike
 * computers and phone apps (Garmin, Wahoo, OsmAnd) load: beyond the spec (docs/routing.md, "GPX").
 *
 * - Each route of the answer is a track (`trk`) named for what it is (supersafe, direct, walking),
 *   with one track segment (`trkseg`) per leg, so a multi-stop route stays one thing to follow
 *   and its stops stay visible where one segment ends and the next begins. Track points carry
 *   heights (`ele`) where the answer's elevation profile has them, and none where no model
 *   covers the city (Los Angeles).
 * - Each route is also a GPX route (`rte`) with a route point (`rtept`) per step: its instruction
 *   in the request's language as `name` (what devices show at the turn) and `desc` (what apps
 *   such as OsmAnd list), the maneuver type as `type`.
 * - The request's waypoints are `wpt`s, named for the way each joined the network.
 * - `metadata` names the trip, links back to the API, credits the map data, gives the bounds
 *   and, as `time`, the departure the route was planned for.
 *
 * Coordinates are written with 6 decimals (about 0.1 m, as the answer rounds them), heights with
 * 1 (as the answer's profile does). Every name is escaped: street names are anyone's input.
 */

export type GpxRouteKind = 'supersafe' | 'direct' | 'walking';

export interface GpxRoute {
  kind: GpxRouteKind;
  route: Pick<RouteBody, 'geometry' | 'steps'>;
  /** The legs of a route with stops, one track segment each; absent or one for a two-point route. */
  legs?: Pick<RouteBody, 'geometry'>[];
  /** The route's heights by distance along it (the answer's `metadata.elevation_profile`), where a model covers it. */
  elevationProfile?: ElevationProfile;
}

export interface GpxDocument {
  language: Language;
  /** The departure the routes were planned for (the request's, or the platform clock's when it gave none). */
  departure: Date;
  /** Where the document came from: the API that answered it. */
  link: string;
  waypoints: { name: string; location: Position }[];
  routes: GpxRoute[];
}

export const GPX_NAMESPACE = 'http://www.topografix.com/GPX/1/1';
export const GPX_CREATOR = 'Spoke';
const MAP_DATA_AUTHOR = 'OpenStreetMap contributors';
const MAP_DATA_LICENSE = 'https://opendatacommons.org/licenses/odbl/';

interface Labels {
  document: string;
  routes: Record<GpxRouteKind, string>;
  waypoints: { start: string; stop: string; destination: string };
}
const labels: Record<Language, Labels> = { en, es };

const fill = (template: string, values: Record<string, string>): string => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
const degrees = (value: number): string => value.toFixed(6);
const metres = (value: number): string => value.toFixed(1);
/** `xsd:dateTime` in UTC, to the second (GPX times are UTC). */
const utcTime = (instant: Date): string => instant.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The GPX 1.1 document of a directions answer's routes and waypoints, as UTF-8 text. */
export function gpxDocument(input: GpxDocument): string {
  const words = labels[input.language];
  const waypointNames = input.waypoints.map((waypoint, index) => waypointName(words, waypoint.name, index, input.waypoints.length));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<gpx xmlns="${GPX_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
      `xsi:schemaLocation="${GPX_NAMESPACE} ${GPX_NAMESPACE}/gpx.xsd" version="1.1" creator="${GPX_CREATOR}">`,
    ...metadataLines(input, fill(words.document, { from: waypointNames[0] ?? '', to: waypointNames.at(-1) ?? '' })),
    ...input.waypoints.map((waypoint, index) => waypointLines('wpt', waypoint.location, { name: waypointNames[index]!, desc: waypointRole(words, index, input.waypoints.length) }, '  ')).flat(),
    ...input.routes.flatMap((route) => routeLines(route, words.routes[route.kind])),
    ...input.routes.flatMap((route) => trackLines(route, words.routes[route.kind])),
    '</gpx>',
    '',
  ];
  return lines.join('\n');
}

function metadataLines(input: GpxDocument, name: string): string[] {
  const positions = input.routes.flatMap((route) => route.route.geometry.coordinates).concat(input.waypoints.map((waypoint) => waypoint.location));
  const lines = [
    '  <metadata>',
    `    <name>${escapeXml(name)}</name>`,
    `    <copyright author="${escapeXml(MAP_DATA_AUTHOR)}"><license>${MAP_DATA_LICENSE}</license></copyright>`,
    `    <link href="${escapeXml(input.link)}"><text>${GPX_CREATOR}</text></link>`,
    `    <time>${utcTime(input.departure)}</time>`,
  ];
  if (positions.length) {
    const [minLon, minLat, maxLon, maxLat] = boundingBox(positions);
    lines.push(`    <bounds minlat="${degrees(minLat)}" minlon="${degrees(minLon)}" maxlat="${degrees(maxLat)}" maxlon="${degrees(maxLon)}"/>`);
  }
  lines.push('  </metadata>');
  return lines;
}

/** The waypoint's way name, or its role (start, stop n, destination) where it joined an unnamed way or none. */
function waypointName(words: Labels, name: string, index: number, count: number): string {
  return name.trim() ? name : waypointRole(words, index, count);
}

function waypointRole(words: Labels, index: number, count: number): string {
  if (index === 0) return words.waypoints.start;
  if (index === count - 1) return words.waypoints.destination;
  return fill(words.waypoints.stop, { n: String(index) });
}

interface PointText {
  name?: string;
  desc?: string;
  type?: string;
}

/** A `wpt` or `rtept`, its children in the order wptType requires (ele, name, desc, type). */
function waypointLines(tag: 'wpt' | 'rtept', [lon, lat]: Position, text: PointText, indent: string, height?: number | null): string[] {
  const children = [
    ...(height === undefined || height === null ? [] : [`<ele>${metres(height)}</ele>`]),
    ...(['name', 'desc', 'type'] as const).flatMap((field) => (text[field] ? [`<${field}>${escapeXml(text[field])}</${field}>`] : [])),
  ];
  const open = `${indent}<${tag} lat="${degrees(lat)}" lon="${degrees(lon)}"`;
  if (!children.length) return [`${open}/>`];
  return [`${open}>`, ...children.map((child) => `${indent}  ${child}`), `${indent}</${tag}>`];
}

function routeLines({ route, elevationProfile }: GpxRoute, name: string): string[] {
  // Steps measure their distance as the profile does, in the graph's metres.
  const heightAt = heightsAlong(elevationProfile, route.steps.reduce((sum, step) => sum + step.distance, 0));
  let along = 0;
  const points = route.steps.flatMap((step) => {
    const lines = waypointLines('rtept', step.maneuver.location, { name: step.maneuver.instruction, desc: step.maneuver.instruction, type: step.maneuver.type }, '    ', heightAt(along));
    along += step.distance;
    return lines;
  });
  return ['  <rte>', `    <name>${escapeXml(name)}</name>`, ...points, '  </rte>'];
}

function trackLines({ route, legs, elevationProfile }: GpxRoute, name: string): string[] {
  const segments = legs && legs.length > 1 ? legs.map((leg) => leg.geometry.coordinates) : [route.geometry.coordinates];
  const heightAt = heightsAlong(elevationProfile, segments.reduce((sum, coordinates) => sum + totalLength(coordinates), 0));
  const lines = ['  <trk>', `    <name>${escapeXml(name)}</name>`];
  let along = 0;
  for (const coordinates of segments) {
    lines.push('    <trkseg>');
    coordinates.forEach(([lon, lat], index) => {
      if (index > 0) along += haversineMetres(...coordinates[index - 1]!, lon, lat);
      // The bulk of the document: written directly rather than through waypointLines.
      const height = heightAt(along);
      const point = `      <trkpt lat="${degrees(lat)}" lon="${degrees(lon)}"`;
      lines.push(height === null ? `${point}/>` : `${point}><ele>${metres(height)}</ele></trkpt>`);
    });
    lines.push('    </trkseg>');
  }
  lines.push('  </trk>');
  return lines;
}

function totalLength(coordinates: readonly Position[]): number {
  let length = 0;
  for (let index = 1; index < coordinates.length; index++) length += haversineMetres(...coordinates[index - 1]!, ...coordinates[index]!);
  return length;
}

/**
 * Heights by metres along a line of `length`, read off the elevation profile (heights at the
 * route's ends and junctions, `[metres along, metres high]`) between its neighbouring points, as
 * the graph itself interpolates along an edge. The profile's metres are the graph's edge lengths:
 * the line's are scaled to them so both ends meet. Null where either neighbour has no height.
 */
export function heightsAlong(profile: ElevationProfile | undefined, length: number): (metres: number) => number | null {
  if (!profile?.length) return () => null;
  const profileLength = profile.at(-1)![0];
  const scale = length > 0 ? profileLength / length : 0;
  // Points are asked for in order along the line: the search resumes where the last one ended.
  let after = 0;
  return (metres) => {
    const at = Math.min(Math.max(metres * scale, 0), profileLength);
    if (after > 0 && profile[after - 1]![0] > at) after = 0;
    while (after < profile.length - 1 && profile[after]![0] < at) after++;
    const [endDistance, endHeight] = profile[after]!;
    if (after === 0 || endDistance <= at) return endHeight;
    const [startDistance, startHeight] = profile[after - 1]!;
    if (startHeight === null || endHeight === null) return null;
    return startHeight + ((endHeight - startHeight) * (at - startDistance)) / (endDistance - startDistance);
  };
}
