import { describe, expect, it } from 'vitest';
import { FREE_PLAN_LIMITS } from '../../platform/plans.ts';
import { OAUTH_RIDER_LIMITS, RIDER_SESSION_LIMITS } from '../../functions/auth/principal.ts';
import { MULTI_MODAL_SCOPE, multiModalLimits } from '../../functions/multimodal/limits.ts';
import { consumeTokens, peekTokens } from '../../functions/ratelimit/limiter.ts';
import { DEMO_CUSTOM_ROUTES } from '../../lib/local/custom-route-seeds.ts';
import { awayFromWindowEdge, call, londonPair, newKey, useLocalAws } from '../support/running-platform.ts';

/**
 * POST /multi-modal/v2/ and POST /explain-supersafe/ over HTTP on the running local platform: the
 * real graphs, the recorded bike-share feeds as the ingestion stored them, the parking datasets
 * and demo custom routes the platform published and seeded at start (spec 4.2, 4.3, 7, 8, 9).
 */

const enterprise = () => newKey({ name: 'multi-modal', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const bloomsbury = { start: [-0.1337, 51.5246], end: [-0.1246, 51.5219], departure_time: '2026-06-15T12:00' };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /multi-modal/v2/', () => {
  it('answers the options in the spec\'s order from the live (recorded) Santander Cycles feed', async () => {
    const response = await call('/multi-modal/v2/', { key: await enterprise(), body: bloomsbury });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.search_id).toMatch(uuid);
    expect(body.options.map((option: any) => option.type)).toEqual(['personal', 'personal', 'docked', 'docked_ebike']);
    expect(body.options[2]).toMatchObject({ name: 'Santander Cycles', supersafe: true, is_electric: false, system: { id: 'santander-cycles' } });
    expect(body.options[3].name).toBe('Santander Cycles E-bike');
    expect(body.destination_parking).toMatchObject({ area_name: 'Camden', ebike_parking_rule: 'bay_mandatory' });
    for (const option of body.options) {
      expect(option.disruptions).toEqual(expect.any(Array));
      for (const leg of option.legs) expect(leg.steps.at(-1).maneuver).toMatchObject({ type: 'Arrive', instruction: 'Arrive at destination' });
    }
  });

  it('takes the unversioned example\'s names on both paths, and answers the same', async () => {
    const key = await enterprise();
    const v2 = await call('/multi-modal/v2/', { key, body: bloomsbury });
    const example = await call('/multi-modal/', { key, body: { origin: bloomsbury.start, destination: bloomsbury.end, departure_time: bloomsbury.departure_time } });
    expect(example.status).toBe(200);
    expect({ ...example.body, search_id: null }).toEqual({ ...v2.body, search_id: null });
  });

  it('answers 400 naming the field, 400 CROSS_CITY_ROUTE with a search id, 404 for another version, 405 for GET', async () => {
    const key = await enterprise();
    const invalid = await call('/multi-modal/v2/', { key, body: { start: bloomsbury.start, stops: [bloomsbury.end], event_id: DEMO_CUSTOM_ROUTES[0]!.id } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toMatch(/end: is required \(also accepted as destination\)/);
    expect(invalid.body.details).toMatch(/stops: cannot be combined with event_id/);
    const cross = await call('/multi-modal/v2/', { key, body: { start: bloomsbury.start, end: [-74.006, 40.7128] } });
    expect(cross.status).toBe(400);
    expect(cross.body).toMatchObject({ code: 'CROSS_CITY_ROUTE', search_id: expect.stringMatching(uuid) });
    expect((await call('/multi-modal/v3/', { key, body: bloomsbury })).status).toBe(404);
    expect((await call('/multi-modal/v2/', { key, method: 'GET' })).status).toBe(405);
  });

  it('answers 200 with no options where nothing can be planned', async () => {
    const response = await call('/multi-modal/v2/', { key: await enterprise(), body: { start: bloomsbury.start, end: [-0.4543, 51.47] } });
    expect(response.status).toBe(200);
    expect(response.body.options).toEqual([]);
  });

  it('follows the demo custom route the platform seeded, by its UUID', async () => {
    const london = DEMO_CUSTOM_ROUTES.find((route) => route.city === 'london')!;
    const response = await call('/multi-modal/v2/', { key: await enterprise(), body: { ...bloomsbury, event_id: london.id } });
    expect(response.status).toBe(200);
    const personal = response.body.options[0];
    expect(personal.event).toMatchObject({ id: london.id, name: london.route.name });
    expect(personal.legs.map((leg: any) => leg.end_label)).toEqual([london.route.name, ...london.route.stops!.map((stop) => stop.name), london.route.end.name]);
    expect(personal.legs.slice(1).every((leg: any) => leg.reroutable === false)).toBe(true);
  });

  it('parks at a surveyed London cycle stand from the published dataset, in Spanish', async () => {
    const response = await call('/multi-modal/v2/', { key: await enterprise(), body: { ...bloomsbury, parking_type: 'regular', language: 'es' } });
    const personal = response.body.options[0];
    expect(personal.name).toBe('Bici propia');
    expect(personal.parking).toMatchObject({ kind: 'cycle_stand', source: { attribution: 'Powered by TfL Open Data' } });
    expect(personal.legs.map((leg: any) => leg.end_label)).toEqual(['Aparca la bici', 'Destino']);
  });
});

describe('multi-modal rate limits', () => {
  it('costs nothing when refused by validation, and one token per hop when valid', async () => {
    await awayFromWindowEdge(60, 20);
    const key = await newKey({ name: 'hops', plan: 'enterprise', limits: { perMinute: 20, perHour: 1000, perDay: 1000 } });
    // Multi-modal's own windows hold half the key's: 10 a minute.
    const invalid = await call('/multi-modal/v2/', { key, body: { start: bloomsbury.start } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-ratelimit-limit')).toBe('10');
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('10');
    const withStops = await call('/multi-modal/v2/', { key, body: { ...bloomsbury, stops: [[-0.13, 51.524], [-0.127, 51.5228]] } });
    expect(withStops.status).toBe(200);
    expect(withStops.headers.get('x-ratelimit-remaining')).toBe('7');
    const plain = await call('/multi-modal/v2/', { key, body: bloomsbury });
    expect(plain.headers.get('x-ratelimit-remaining')).toBe('6');
  });

  it('is stricter than directions: a free key\'s fifth multi-modal request a minute is its last, while directions goes on', async () => {
    await awayFromWindowEdge(60, 25);
    const key = await newKey();
    for (let index = 0; index < 5; index++) {
      const response = await call('/multi-modal/v2/', { key, body: bloomsbury });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(4 - index));
    }
    const refused = await call('/multi-modal/v2/', { key, body: bloomsbury });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The five multi-modal requests also counted against the key's own 10 a minute.
    const directions = await call('/directions/v2/', { key, body: { coordinates: londonPair } });
    expect(directions.status).toBe(200);
    expect(directions.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('takes both sets of windows in one update, all or nothing (controlled clock, real table)', async () => {
    useLocalAws();
    const bucket = `test:${crypto.randomUUID()}`;
    const limits = { perMinute: 3, perHour: 100, perDay: 1000 };
    const scope = { scope: MULTI_MODAL_SCOPE, limits: { perMinute: 2, perHour: 50, perDay: 500 } };
    const at = () => Date.UTC(2026, 5, 15, 12, 0, 10);
    expect((await consumeTokens(bucket, limits, 1, at, scope)).report).toMatchObject({ limit: 2, remaining: 1 });
    expect((await consumeTokens(bucket, limits, 1, at, scope)).allowed).toBe(true);
    const refused = await consumeTokens(bucket, limits, 1, at, scope);
    expect(refused).toMatchObject({ allowed: false, report: { limit: 2, remaining: 0 } });
    // The refusal took nothing from the general windows: one directions-like request still fits.
    expect((await peekTokens(bucket, limits, at)).report).toMatchObject({ limit: 3, remaining: 1 });
    expect((await consumeTokens(bucket, limits, 1, at)).allowed).toBe(true);
    expect((await consumeTokens(bucket, limits, 1, at)).allowed).toBe(false);
    // A cost neither set can hold says which window it exceeds.
    expect((await consumeTokens(`test:${crypto.randomUUID()}`, limits, 3, at, scope)).exceedsWindow).toEqual({ kind: 'minute', limit: 2 });
  });

  it('gives callers with higher limits higher multi-modal limits: rider sessions and apps above a free key', () => {
    expect(multiModalLimits(FREE_PLAN_LIMITS)).toEqual({ perMinute: 5, perHour: 50, perDay: 500 });
    for (const higher of [RIDER_SESSION_LIMITS, OAUTH_RIDER_LIMITS]) {
      const limits = multiModalLimits(higher);
      expect(limits.perMinute).toBeGreaterThan(5);
      expect(limits.perMinute).toBeLessThan(higher.perMinute);
    }
  });
});

describe('POST /explain-supersafe/', () => {
  it('explains in one sentence in the requested language, with the figures it was chosen from', async () => {
    const key = await enterprise();
    const body = { coordinates: londonPair, departure_time: '2026-06-15T12:00' };
    const english = await call('/explain-supersafe/', { key, body });
    expect(english.status).toBe(200);
    expect(english.body).toMatchObject({ search_id: expect.stringMatching(uuid), same_route: expect.any(Boolean), metadata: { nighttime: false, waypoint_count: 2 } });
    expect(english.body.explanation).toMatch(/^The safe(r|st) route .+\.$/);
    const directions = await call('/directions/v2/', { key, body: { ...body, supersafe: true } });
    expect(english.body.figures.supersafe.distance).toBe(directions.body.route.distance);
    const spanish = await call('/explain-supersafe/', { key, body: { ...body, language: 'es-ES' } });
    expect(spanish.body.explanation).toMatch(/^La ruta más segura .+\.$/);
    expect(spanish.body.template).toBe(english.body.template);
  });

  it('refuses what directions refuses, without charging for it', async () => {
    await awayFromWindowEdge(60, 10);
    const key = await newKey();
    const invalid = await call('/explain-supersafe/', { key, body: { coordinates: [londonPair[0]], profile: 'walking' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toMatch(/coordinates: must contain at least 2 coordinates/);
    expect(invalid.body.details).toMatch(/profile: must be cycling/);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('10');
    const cross = await call('/explain-supersafe/', { key, body: { coordinates: [londonPair[0], [-74.006, 40.7128]] } });
    expect(cross.body.code).toBe('CROSS_CITY_ROUTE');
    expect((await call('/explain-supersafe/', { key, method: 'GET' })).status).toBe(405);
    expect((await call('/explain-supersafe/', { body: { coordinates: londonPair } })).status).toBe(401);
  });
});
