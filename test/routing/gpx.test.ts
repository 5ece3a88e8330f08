import { describe, expect, it, vi } from 'vitest';
import type { Position } from '../../core/geo.ts';
import { gpxDocument, heightsAlong, type GpxDocument } from '../../core/routing/export/gpx.ts';
import { planDirections, type DirectionsBody } from '../../functions/directions/directions.ts';
import { directionsRequest } from '../../functions/directions/request.ts';
import { gpxPoints, gpxSchemaProblems } from '../support/gpx-schema.ts';

/**
 * The GPX writer (core/routing/export/gpx.ts) on directions answers planned on the real graphs,
 * as the directions endpoint plans them: every document valid against the GPX 1.1 schema, its
 * track the route's geometry with heights where the city has an elevation model (San Francisco)
 * and none where it has not (Los Angeles), its route points the steps' instructions in the
 * request's language, and hostile names kept as text.
 */

vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));

const DEPARTURE = new Date('2026-06-15T17:30:00Z');
/** Union Square to Lombard Street: San Francisco's USGS model covers it, and it climbs. */
const SAN_FRANCISCO: Position[] = [[-122.4075, 37.788], [-122.4187, 37.8021]];
/** Across UCLA: no elevation model covers Los Angeles. */
const LOS_ANGELES: Position[] = [[-118.4426, 34.0739], [-118.434, 34.0622]];

async function answer(coordinates: Position[], options: { language?: 'en' | 'es'; supersafe?: boolean } = {}): Promise<DirectionsBody> {
  const outcome = await planDirections(directionsRequest.parse({ coordinates, departure_time: '2026-06-15T10:30', ...options }), DEPARTURE);
  if (outcome.kind !== 'routed' || !outcome.body.route) throw new Error(`no route through ${JSON.stringify(coordinates)}`);
  return outcome.body;
}

function documentOf(body: DirectionsBody, language: 'en' | 'es' = 'en'): GpxDocument {
  return {
    language,
    departure: DEPARTURE,
    link: 'http://localhost:3000/directions/v2/',
    waypoints: body.waypoints,
    routes: [{ kind: body.metadata.supersafe ? 'supersafe' : 'direct', route: body.route!, legs: body.legs, elevationProfile: body.metadata.elevation_profile }],
  };
}

const rounded = ([lon, lat]: Position): Position => [Number(lon.toFixed(6)), Number(lat.toFixed(6))];

describe('GPX 1.1 of a directions answer', () => {
  it('follows a San Francisco route with heights from the elevation model, valid against the schema', async () => {
    const body = await answer(SAN_FRANCISCO);
    const gpx = gpxDocument(documentOf(body));
    expect(await gpxSchemaProblems(gpx)).toEqual([]);

    const track = gpxPoints(gpx, 'trkpt');
    const geometry = body.route!.geometry.coordinates;
    expect(track.map((point) => point.position)).toEqual(geometry.map(rounded));
    // Every point has a height, within what the profile measured along the route.
    const heights = body.metadata.elevation_profile!.map(([, height]) => height!);
    expect(track.every((point) => point.ele !== undefined)).toBe(true);
    for (const point of track) {
      expect(point.ele!).toBeGreaterThanOrEqual(Math.min(...heights) - 0.05);
      expect(point.ele!).toBeLessThanOrEqual(Math.max(...heights) + 0.05);
    }
    expect(track[0]!.ele).toBeCloseTo(heights[0]!, 1);
    expect(track.at(-1)!.ele).toBeCloseTo(heights.at(-1)!, 1);
    // The track climbs: Lombard Street is well above Union Square.
    expect(track.at(-1)!.ele! - track[0]!.ele!).toBeGreaterThan(20);

    const routePoints = gpxPoints(gpx, 'rtept');
    expect(routePoints.map((point) => point.name)).toEqual(body.route!.steps.map((step) => step.maneuver.instruction));
    expect(routePoints.map((point) => point.desc)).toEqual(body.route!.steps.map((step) => step.maneuver.instruction));
    expect(routePoints.map((point) => point.position)).toEqual(body.route!.steps.map((step) => rounded(step.maneuver.location)));

    expect(gpxPoints(gpx, 'wpt').map((point) => point.position)).toEqual(body.waypoints.map((waypoint) => rounded(waypoint.location)));
    expect(gpx).toContain('<time>2026-06-15T17:30:00Z</time>');
    expect(gpx).toMatch(/<trk>\s*<name>Supersafe route<\/name>/);
  });

  it('writes no height where no model covers the city (Los Angeles), and stays valid', async () => {
    const body = await answer(LOS_ANGELES, { supersafe: false });
    expect(body.metadata.elevation_profile).toBeUndefined();
    const gpx = gpxDocument(documentOf(body));
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expect(gpx).not.toContain('<ele>');
    expect(gpxPoints(gpx, 'trkpt')).toHaveLength(body.route!.geometry.coordinates.length);
    expect(gpx).toMatch(/<trk>\s*<name>Direct route<\/name>/);
  });

  it('speaks the request language: Spanish instructions, route and waypoint names', async () => {
    const body = await answer(SAN_FRANCISCO, { language: 'es' });
    const gpx = gpxDocument(documentOf({ ...body, waypoints: body.waypoints.map((waypoint) => ({ ...waypoint, name: '' })) }, 'es'));
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    const names = gpxPoints(gpx, 'rtept').map((point) => point.name);
    expect(names).toEqual(body.route!.steps.map((step) => step.maneuver.instruction));
    expect(names.at(-1)).toMatch(/destino/i);
    expect(gpx).toMatch(/<trk>\s*<name>Ruta más segura<\/name>/);
    expect(gpxPoints(gpx, 'wpt').map((point) => point.name)).toEqual(['Salida', 'Destino']);
    expect(gpx).toContain('<name>Ruta de Spoke de Salida a Destino</name>');
  });

  it('keeps one track for a route with stops, a segment per leg', async () => {
    const body = await answer([SAN_FRANCISCO[0]!, [-122.4108, 37.7946], SAN_FRANCISCO[1]!]);
    expect(body.legs).toHaveLength(2);
    const gpx = gpxDocument(documentOf(body));
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expect(gpx.match(/<trk>/g)).toHaveLength(1);
    const segments = gpx.split('<trkseg>').slice(1).map((segment) => gpxPoints(segment.slice(0, segment.indexOf('</trkseg>')), 'trkpt'));
    expect(segments.map((points) => points.map((point) => point.position))).toEqual(body.legs!.map((leg) => leg.geometry.coordinates.map(rounded)));
    expect(gpxPoints(gpx, 'wpt').map((point) => point.desc)).toEqual(['Start', 'Stop 1', 'Destination']);
  });

  it('writes each route of an answer as its own named track and route, supersafe and direct', async () => {
    const supersafe = await answer(SAN_FRANCISCO);
    const direct = await answer(SAN_FRANCISCO, { supersafe: false });
    const routes = [supersafe, direct].map((body, index) => ({ kind: index === 0 ? ('supersafe' as const) : ('direct' as const), route: body.route!, elevationProfile: body.metadata.elevation_profile }));
    const gpx = gpxDocument({ ...documentOf(supersafe), routes });
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expect([...gpx.matchAll(/<trk>\s*<name>([^<]+)<\/name>/g)].map((match) => match[1])).toEqual(['Supersafe route', 'Direct route']);
    expect([...gpx.matchAll(/<rte>\s*<name>([^<]+)<\/name>/g)].map((match) => match[1])).toEqual(['Supersafe route', 'Direct route']);
    const tracks = gpx.split('<trk>').slice(1).map((track) => gpxPoints(track, 'trkpt').map((point) => point.position));
    expect(tracks).toEqual([supersafe, direct].map((body) => body.route!.geometry.coordinates.map(rounded)));
  });

  it('keeps hostile names as text: markup escaped, characters XML forbids left out', async () => {
    const body = await answer(LOS_ANGELES);
    const hostile = 'Main St </name><script>alert("x")</script> & \'Co\' \u0007\u001b]8;;\uD800';
    const route = body.route!;
    const steps = route.steps.map((step) => ({ ...step, maneuver: { ...step.maneuver, instruction: `Turn onto ${hostile}` } }));
    const gpx = gpxDocument({ ...documentOf(body), waypoints: body.waypoints.map((waypoint) => ({ ...waypoint, name: hostile })), routes: [{ kind: 'direct', route: { ...route, steps } }] });
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expect(gpx).not.toContain('<script>');
    const kept = 'Main St </name><script>alert("x")</script> & \'Co\' ]8;;';
    expect(gpxPoints(gpx, 'wpt').map((point) => point.name)).toEqual([kept, kept]);
    expect(new Set(gpxPoints(gpx, 'rtept').map((point) => point.name))).toEqual(new Set([`Turn onto ${kept}`]));
    expect(gpx).toContain(`<name>Spoke route from ${'Main St &lt;/name&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;Co&apos; ]8;;'} to`);
  });
});

describe('heights along a route', () => {
  const profile: [number, number | null][] = [[0, 10], [100, 20], [200, null], [300, 40]];

  it('interpolates between the profile points, scaled to the line', () => {
    const at = heightsAlong(profile, 600);
    expect([0, 100, 200].map(at)).toEqual([10, 15, 20]);
    expect(at(600)).toBe(40);
  });

  it('has none beside a point the model does not cover, and none without a profile', () => {
    const at = heightsAlong(profile, 300);
    expect(at(150)).toBeNull();
    expect(at(250)).toBeNull();
    expect(heightsAlong(undefined, 300)(10)).toBeNull();
  });
});
