import { describe, expect, it } from 'vitest';
import { call, newKey } from '../support/running-platform.ts';

/** Directions v2 over HTTP on the real city graphs (spec 4.1). */

const enterprise = () => newKey({ name: 'directions', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const bloomsbury = [[-0.1337, 51.5246], [-0.1246, 51.5219]];
const lowerManhattan = [[-74.006, 40.7128], [-73.9899, 40.6955]];
const westwood = [[-118.4452, 34.0689], [-118.4409, 34.0632]];
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /directions/v2/', () => {
  it('routes in London with the full envelope', async () => {
    const response = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: bloomsbury, departure_time: '2026-06-15T12:00' } });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.search_id).toMatch(uuid);
    expect(body.graph_version).toMatch(/^london-\d{8}T\d{6}-[0-9a-f]{8}$/);
    expect(body.sublabel).toBeNull();
    expect(body).not.toHaveProperty('legs');
    expect(body.metadata).toMatchObject({ profile: 'cycling', supersafe: true, nighttime: false, waypoint_count: 2 });
    expect(body.waypoints).toHaveLength(2);
    for (const waypoint of body.waypoints) expect(waypoint.location).toHaveLength(2);
    const route = body.route;
    expect(route.distance).toBeGreaterThan(500);
    // Ridden metres at 15 km/h, pushed ones (the steps at the start) at walking pace.
    const pushed = body.metadata.safety_breakdown.pushed;
    expect(route.duration).toBeCloseTo((route.distance - pushed) / (15 / 3.6) + pushed / (5 / 3.6), -1);
    expect(route.geometry.type).toBe('LineString');
    expect(route.geometry.coordinates.length).toBeGreaterThan(2);
    const steps = route.steps;
    expect(steps[0].maneuver.type).toBe('Start');
    expect(steps.at(-1).maneuver).toMatchObject({ type: 'Arrive', instruction: 'Arrive at destination' });
    expect(steps.at(-1)).not.toHaveProperty('safety_classification');
    const summed = steps.reduce((sum: number, step: any) => sum + step.distance, 0);
    expect(Math.abs(summed - route.distance)).toBeLessThan(1);
    for (const step of steps) {
      expect(step.maneuver.location).toEqual(step.geometry.coordinates[0]);
      // Cycling, except where the rider walks the bike (the steps out of Argyle Square).
      expect(step.mode).toBe(step.safety_classification || step.maneuver.type === 'Arrive' ? 'cycling' : 'walking');
    }
    const breakdown = body.metadata.safety_breakdown;
    const total = Object.values(breakdown as Record<string, number>).reduce((sum, metres) => sum + metres, 0);
    expect(Math.abs(total - route.distance)).toBeLessThan(5);
  });

  it('answers in Spanish for es and es-MX', async () => {
    const key = await enterprise();
    for (const language of ['es', 'es-MX']) {
      const response = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, language, departure_time: '2026-06-15T12:00' } });
      expect(response.body.route.steps.at(-1).maneuver.instruction).toBe('Llega a tu destino');
    }
  });

  it('answers CROSS_CITY_ROUTE across cities and outside coverage', async () => {
    const key = await enterprise();
    for (const coordinates of [[bloomsbury[0], lowerManhattan[0]], [[2.3522, 48.8566], [2.36, 48.86]]]) {
      const response = await call('/directions/v2/', { key, body: { coordinates } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('CROSS_CITY_ROUTE');
      expect(response.body.error).toMatch(/cross-city routing is not supported/i);
      expect(response.body.search_id).toMatch(uuid);
    }
  });

  it('says why there is no route between Bloomsbury and the City, two London extracts no street joins, in English and Spanish', async () => {
    const city: [number, number] = [-0.09, 51.515];
    for (const [language, message] of [
      ['en', 'Coordinates 1 and 2 lie in parts of the map that no road or path joins.'],
      ['es', 'Las coordenadas 1 y 2 están en partes del mapa que ninguna calle ni camino une.'],
    ] as const) {
      const response = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: [bloomsbury[0], city], language } });
      expect(response.status).toBe(200);
      expect(response.body.route).toBeNull();
      expect(response.body.metadata).toMatchObject({ no_route_reason: 'not_connected', no_route_message: message });
    }
    // A route found carries neither field.
    const routed = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: bloomsbury } });
    expect(routed.body.metadata).not.toHaveProperty('no_route_reason');
    expect(routed.body.metadata).not.toHaveProperty('no_route_message');
  });

  it('answers route null for a point in a covered city but away from the mapped roads', async () => {
    // Heathrow is in London but far outside the loaded extracts.
    const response = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: [bloomsbury[0], [-0.4543, 51.47]] } });
    expect(response.status).toBe(200);
    expect(response.body.route).toBeNull();
    // Beyond the spec: why, naming the coordinate as a person counts it.
    expect(response.body.metadata).toMatchObject({ no_route_reason: 'outside_coverage', no_route_message: expect.stringMatching(/^Coordinate 2 is outside the area the city's map covers/) });
    expect(response.body).not.toHaveProperty('legs');
    expect(response.body.waypoints).toHaveLength(2);
  });

  it('gives one leg per pair, each equal to the two-point route, and stitches them', async () => {
    const key = await enterprise();
    const stops = [[-74.0060, 40.7128], [-73.9970, 40.7100], [-73.9899, 40.6955], [-73.9860, 40.6960]];
    // A fixed departure by day: at night City Hall Park's paths are closed and the answer would change with the clock.
    const departure_time = '2026-06-15T12:00';
    const whole = await call('/directions/v2/', { key, body: { coordinates: stops, departure_time } });
    expect(whole.status).toBe(200);
    const legs = whole.body.legs;
    expect(legs).toHaveLength(3);
    let distance = 0;
    for (let index = 0; index < legs.length; index++) {
      const pair = await call('/directions/v2/', { key, body: { coordinates: stops.slice(index, index + 2), departure_time } });
      expect(legs[index].mode).toBe('cycling');
      expect(legs[index].distance).toBe(pair.body.route.distance);
      expect(legs[index].geometry).toEqual(pair.body.route.geometry);
      expect(legs[index].steps.map((step: any) => step.maneuver.instruction)).toEqual(pair.body.route.steps.map((step: any) => step.maneuver.instruction));
      distance += legs[index].distance;
    }
    expect(whole.body.route.distance).toBeCloseTo(distance, 0);
    const arrivals = whole.body.route.steps.filter((step: any) => step.maneuver.type === 'Arrive');
    expect(arrivals).toHaveLength(3);
    expect(arrivals.every((step: any) => step.distance === 0)).toBe(true);
  });

  it('keeps supersafe routes off busy and shared roads more than direct ones', async () => {
    const key = await enterprise();
    const pairs = [bloomsbury, lowerManhattan, westwood, [[-73.9870, 40.7480], [-73.9990, 40.7420]], [[-74.0100, 40.7050], [-73.9980, 40.7230]]];
    let safer = 0;
    let routed = 0;
    let directTotal = 0;
    let supersafeTotal = 0;
    for (const coordinates of pairs) {
      const risky = (body: any) => body.metadata.safety_breakdown.busy + body.metadata.safety_breakdown.shared;
      const supersafe = await call('/directions/v2/', { key, body: { coordinates, departure_time: '2026-06-15T12:00' } });
      const direct = await call('/directions/v2/', { key, body: { coordinates, supersafe: false, departure_time: '2026-06-15T12:00' } });
      expect(direct.body.metadata.supersafe).toBe(false);
      if (!supersafe.body.route || !direct.body.route) continue;
      routed++;
      // Supersafe weighs traffic stress as well as class (docs/routing.md), so on a pair it may ride a
      // few metres more of busy or shared way for far fewer at stress 3-4 (Midtown: 104 m against
      // 101, with 428 m at stress 3-4 against 621); never more than that.
      expect(risky(supersafe.body)).toBeLessThanOrEqual(risky(direct.body) + 10);
      if (risky(supersafe.body) < risky(direct.body)) safer++;
      directTotal += risky(direct.body);
      supersafeTotal += risky(supersafe.body);
    }
    expect(routed).toBeGreaterThanOrEqual(4);
    expect(safer).toBeGreaterThan(0);
    expect(supersafeTotal).toBeLessThan(directTotal);
  });

  it('prefers lit streets at night in London and never routes at night in Los Angeles', async () => {
    const key = await enterprise();
    const night = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: '2026-12-01T23:00' } });
    expect(night.body.metadata.nighttime).toBe(true);
    expect(night.body.sublabel).toBe('Prefers well-lit roads');
    const day = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: '2026-06-15T12:00' } });
    expect(day.body.metadata.nighttime).toBe(false);
    const forcedDay = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: '2026-12-01T23:00', nighttime: false } });
    expect(forcedDay.body.metadata.nighttime).toBe(false);
    const la = await call('/directions/v2/', { key, body: { coordinates: westwood, departure_time: '2026-12-01T23:00', nighttime: true } });
    expect(la.body.metadata.nighttime).toBe(false);
    expect(la.body.sublabel).toBeNull();
  });

  it('departs "now" on the platform clock when no departure_time is given, as multi-modal and explain do', async () => {
    const key = await enterprise();
    /** Runs the request with the platform clock at an instant (the local gateway's test clock, platform/clock.ts). */
    const at = (instant: string) => ({ 'X-Spoke-Test-Clock-At': instant });
    const lateEvening = await call('/directions/v2/', { key, headers: at('2026-12-01T23:00:00Z'), body: { coordinates: bloomsbury } });
    expect(lateEvening.body.metadata.nighttime).toBe(true);
    const midday = await call('/directions/v2/', { key, headers: at('2026-06-15T12:00:00Z'), body: { coordinates: bloomsbury } });
    expect(midday.body.metadata.nighttime).toBe(false);
  });

  it('walks on the walking network without cycling fields', async () => {
    const response = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: bloomsbury, profile: 'walking' } });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.graph_version).toBeNull();
    expect(body).not.toHaveProperty('disruptions');
    expect(body.metadata).toMatchObject({ profile: 'walking', nighttime: false });
    expect(body.route.duration).toBeCloseTo(body.route.distance / (5 / 3.6), 0);
    for (const step of body.route.steps) {
      expect(step.mode).toBe('walking');
      expect(step).not.toHaveProperty('safety_classification');
      for (const segment of step.segments) expect(segment).not.toHaveProperty('safety_classification');
    }
  });

  it('honours bearing on the first coordinate only', async () => {
    const key = await enterprise();
    const routes = await Promise.all([0, 90, 180, 270].map((bearing) => call('/directions/v2/', { key, body: { coordinates: bloomsbury, bearing, departure_time: '2026-06-15T12:00' } })));
    for (const response of routes) expect(response.status).toBe(200);
    const starts = routes.filter((response) => response.body.route).map((response) => response.body.route.steps[0].maneuver.bearing_after);
    expect(new Set(starts).size).toBeGreaterThan(1);
  });
});
