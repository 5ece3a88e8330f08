import { beforeAll, describe, expect, it } from 'vitest';
import { gpxPoints, gpxSchemaProblems } from '../support/gpx-schema.ts';
import { call, newKey } from '../support/running-platform.ts';

/**
 * Directions as GPX over HTTP (beyond the spec; docs/routing.md, "GPX"): asked for by the Accept
 * header or the `format` field, through the local gateway as API Gateway passes it, the file
 * valid against the GPX 1.1 schema and the same route as the JSON answer to the same request.
 */

const GPX = 'application/gpx+xml';
/** Union Square to Lombard Street: San Francisco has an elevation model (USGS 30 m), and the route climbs. */
const sanFrancisco = [[-122.4075, 37.788], [-122.4187, 37.8021]];
/** Across UCLA: no elevation model covers Los Angeles. */
const westwood = [[-118.4426, 34.0739], [-118.434, 34.0622]];
const departure_time = '2026-06-15T10:30';
const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

let key: string;
beforeAll(async () => {
  key = await newKey({ name: 'directions-gpx', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
});

const rounded = ([lon, lat]: number[]) => [Number(lon!.toFixed(6)), Number(lat!.toFixed(6))];

/** The JSON answer and the GPX answer to the same request, the GPX asked for as `how` says. */
async function both(body: Record<string, unknown>, how: 'accept' | 'format') {
  const json = await call('/directions/v2/', { key, body });
  const gpx = how === 'accept' ? await call('/directions/v2/', { key, body, headers: { Accept: GPX } }) : await call('/directions/v2/', { key, body: { ...body, format: 'gpx' } });
  expect(json.status).toBe(200);
  expect(json.body.route).not.toBeNull();
  expect(gpx.status).toBe(200);
  expect(typeof gpx.body).toBe('string');
  return { json: json.body, gpx: gpx.body as string, headers: gpx.headers };
}

function expectSameRoute(json: any, gpx: string): void {
  const track = gpxPoints(gpx, 'trkpt');
  const geometry: number[][] = json.route.geometry.coordinates;
  expect(track).toHaveLength(geometry.length);
  expect(track[0]!.position).toEqual(rounded(geometry[0]!));
  expect(track.at(-1)!.position).toEqual(rounded(geometry.at(-1)!));
  expect(track.map((point) => point.position)).toEqual(geometry.map(rounded));
  expect(gpxPoints(gpx, 'rtept').map((point) => point.name)).toEqual(json.route.steps.map((step: any) => step.maneuver.instruction));
  expect(gpxPoints(gpx, 'wpt').map((point) => point.position)).toEqual(json.waypoints.map((waypoint: any) => rounded(waypoint.location)));
}

describe('POST /directions/v2/ as GPX', () => {
  it('answers a San Francisco route to Accept: application/gpx+xml as a GPX 1.1 file with heights', async () => {
    const { json, gpx, headers } = await both({ coordinates: sanFrancisco, departure_time }, 'accept');
    expect(headers.get('content-type')).toBe('application/gpx+xml; charset=utf-8');
    expect(headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="spoke-route-${uuid}\\.gpx"$`));
    expect(headers.get('access-control-expose-headers')).toContain('Content-Disposition');
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expectSameRoute(json, gpx);
    const heights = gpxPoints(gpx, 'trkpt').map((point) => point.ele);
    expect(heights.every((height) => typeof height === 'number')).toBe(true);
    expect(Math.max(...(heights as number[])) - Math.min(...(heights as number[]))).toBeGreaterThan(20);
    // The departure, 10:30 in San Francisco's summer time, not the time of the request.
    expect(gpx).toContain('<time>2026-06-15T17:30:00Z</time>');
    expect(gpx).toMatch(/<trk>\s*<name>Supersafe route<\/name>/);
  });

  it('answers format: "gpx" the same way, in the request language', async () => {
    const { json, gpx, headers } = await both({ coordinates: sanFrancisco, departure_time, language: 'es', supersafe: false }, 'format');
    expect(headers.get('content-type')).toBe('application/gpx+xml; charset=utf-8');
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expectSameRoute(json, gpx);
    expect(gpxPoints(gpx, 'rtept').at(-1)!.name).toBe('Llega a tu destino');
    expect(gpx).toMatch(/<trk>\s*<name>Ruta directa<\/name>/);
  });

  it('writes no heights in Los Angeles, which no elevation model covers', async () => {
    const { json, gpx } = await both({ coordinates: westwood, departure_time }, 'accept');
    expect(json.metadata).not.toHaveProperty('elevation_profile');
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    expectSameRoute(json, gpx);
    expect(gpx).not.toContain('<ele>');
  });

  it('keeps a route with stops one track, a segment per leg', async () => {
    const { json, gpx } = await both({ coordinates: [sanFrancisco[0], [-122.4108, 37.7946], sanFrancisco[1]], departure_time }, 'format');
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    const segments = gpx.split('<trkseg>').slice(1).map((segment) => gpxPoints(segment.slice(0, segment.indexOf('</trkseg>')), 'trkpt').map((point) => point.position));
    expect(segments).toEqual(json.legs.map((leg: any) => leg.geometry.coordinates.map(rounded)));
    expect(gpxPoints(gpx, 'wpt')).toHaveLength(3);
  });

  it('answers JSON as today to any other Accept header, and to format: "json" whatever the header', async () => {
    const body = { coordinates: westwood, departure_time };
    const plain = await call('/directions/v2/', { key, body });
    expect(plain.body.route).not.toBeNull();
    for (const accept of ['application/json', '*/*', 'text/html', 'application/xml', `${GPX};q=0.5, application/json`, `${GPX};q=0`]) {
      const response = await call('/directions/v2/', { key, body, headers: { Accept: accept } });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type'), accept).toBe('application/json; charset=utf-8');
      expect(response.headers.get('content-disposition'), accept).toBeNull();
      expect({ ...response.body, search_id: null }, accept).toEqual({ ...plain.body, search_id: null });
    }
    const asJson = await call('/directions/v2/', { key, body: { ...body, format: 'json' }, headers: { Accept: GPX } });
    expect(asJson.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect({ ...asJson.body, search_id: null }).toEqual({ ...plain.body, search_id: null });
  });

  it('answers 422 NO_ROUTE in the spec error shape when no route joins the waypoints, where JSON answers route null', async () => {
    // Heathrow is in London but far outside the loaded extracts.
    const body = { coordinates: [[-0.1337, 51.5246], [-0.4543, 51.47]], departure_time: '2026-06-15T12:00' };
    expect((await call('/directions/v2/', { key, body })).body.route).toBeNull();
    for (const request of [{ body: { ...body, format: 'gpx' } }, { body, headers: { Accept: GPX } }]) {
      const response = await call('/directions/v2/', { key, ...request });
      expect(response.status).toBe(422);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.body).toMatchObject({ code: 'NO_ROUTE', error: expect.stringMatching(/no route/i), search_id: expect.stringMatching(new RegExp(`^${uuid}$`)) });
    }
  });

  it('refuses a format it does not write', async () => {
    const response = await call('/directions/v2/', { key, body: { coordinates: westwood, format: 'kml' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/format/);
  });
});
