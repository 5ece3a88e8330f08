import { describe, expect, it } from 'vitest';
import { call, londonPair, newKey } from '../support/running-platform.ts';

describe('HTTP conventions over the local gateway', () => {
  it('answers invalid JSON with 400 in the error shape', async () => {
    const key = await newKey();
    const response = await call('/directions/v2/', { key, rawBody: '{"coordinates": [', headers: { 'Content-Type': 'application/json' }, method: 'POST' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid JSON body' });
  });

  it('answers a missing body and a non-object body with 400', async () => {
    const key = await newKey();
    expect((await call('/directions/v2/', { key, method: 'POST' })).body.error).toMatch(/body is required/);
    expect((await call('/directions/v2/', { key, body: [1, 2] })).body.error).toMatch(/JSON object/);
  });

  it.each([
    [{ coordinates: [[-0.13, 51.52]] }, /^coordinates: must contain at least 2 coordinates/],
    [{ coordinates: Array.from({ length: 26 }, () => [-0.13, 51.52]) }, /^coordinates: must contain at most 25/],
    [{ coordinates: [[-181, 51.5], [-0.12, 51.52]] }, /^coordinates\[0\]\[0\]: longitude must be between -180 and 180/],
    [{ coordinates: [[-0.13, 51.5], [-0.12, 91]] }, /^coordinates\[1\]\[1\]: latitude must be between -90 and 90/],
    [{ coordinates: londonPair, profile: 'driving' }, /^profile: must be cycling or walking/],
    [{ coordinates: londonPair, language: 'fr' }, /^language: must be en or es/],
    [{ coordinates: londonPair, bearing: 360 }, /^bearing: must be in \[0, 360\)/],
    [{ coordinates: londonPair, departure_time: '2026-11-21T18:30+01:00' }, /^departure_time: must be YYYY-MM-DDTHH:mm/],
    [{ coordinates: londonPair, departure_time: '2026-13-40T18:30' }, /^departure_time: is not a valid date/],
    [{ coordinates: londonPair, departure_time: '0000-01-01T00:00' }, /^departure_time: must be in the years 1970 to 2100$/],
    [{ coordinates: londonPair, departure_time: '1969-12-31T23:59' }, /^departure_time: must be in the years 1970 to 2100$/],
    [{ coordinates: londonPair, departure_time: '2101-01-01T00:00' }, /^departure_time: must be in the years 1970 to 2100$/],
    [{ coordinates: londonPair, supersafe: 'yes' }, /^supersafe: must be true or false/],
  ])('names the field and the problem for %j', async (body, message) => {
    const key = await newKey();
    const response = await call('/directions/v2/', { key, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('refuses a departure_time outside 1970 to 2100 on every endpoint that takes one (one shared rule)', async () => {
    const key = await newKey({ name: 'departure years', plan: 'enterprise', limits: { perMinute: 100, perHour: 1_000, perDay: 10_000 } });
    const requests: [string, Record<string, unknown>][] = [
      ['/directions/v2/', { coordinates: londonPair }],
      ['/multi-modal/v2/', { start: londonPair[0], end: londonPair[1] }],
      ['/explain-supersafe/', { coordinates: londonPair }],
    ];
    for (const [path, body] of requests) {
      for (const departure of ['0000-01-01T00:00', '9999-12-31T23:59']) {
        const response = await call(path, { key, body: { ...body, departure_time: departure } });
        expect(response.status, `${path} ${departure}`).toBe(400);
        expect(response.body.error).toBe('departure_time: must be in the years 1970 to 2100');
      }
      const edge = await call(path, { key, body: { ...body, departure_time: '2100-12-31T23:59' } });
      expect(edge.status, `${path} 2100`).toBe(200);
    }
  });

  it('reads a regional language tag as its base language', async () => {
    const key = await newKey();
    const response = await call('/directions/v2/', { key, body: { coordinates: londonPair, language: 'es-MX' } });
    expect(response.status).not.toBe(400);
  });

  it('answers other methods on a known path with 405 and Allow', async () => {
    const key = await newKey();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await call('/directions/v2/', { key, method });
      expect(response.status).toBe(405);
      expect(response.body).toEqual({ error: 'Method not allowed' });
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('answers version sub-paths that do not exist and unknown paths with 404', async () => {
    for (const path of ['/directions/v3/', '/directions/v1', '/multi-modal/v9/', '/directions/v2/extra', '/no-such-thing/']) {
      const response = await call(path, { method: 'POST', body: {} });
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ error: 'Unknown endpoint or API version' });
    }
    const app = await call('/nothing-here/', { api: 'app' });
    expect(app.status).toBe(404);
    expect(app.body).toEqual({ error: 'Unknown endpoint or API version' });
  });

  it('serves the unversioned /directions/ and /multi-modal/ as aliases of v2', async () => {
    const key = await newKey({ name: 'alias', plan: 'enterprise', limits: { perMinute: 100, perHour: 100, perDay: 100 } });
    for (const [versioned, alias, body] of [
      ['/directions/v2/', '/directions/', { coordinates: londonPair }],
      ['/multi-modal/v2/', '/multi-modal/', {}],
    ] as const) {
      const a = await call(versioned, { key, body });
      const b = await call(alias, { key, body });
      expect(b.status).toBe(a.status);
      expect({ ...b.body, search_id: undefined }).toEqual({ ...a.body, search_id: undefined });
      expect((await call(alias, { key, method: 'GET' })).status).toBe(405);
    }
  });

  it('puts CORS headers and a request id on handler and gateway responses', async () => {
    const key = await newKey();
    const handled = await call('/directions/v2/', { key, body: { coordinates: londonPair } });
    const refused = await call('/directions/v2/', { body: { coordinates: londonPair } });
    const unknown = await call('/nowhere/');
    for (const response of [handled, refused, unknown]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(handled.headers.get('x-request-id')).toBe(handled.headers.get('x-amzn-requestid'));
  });

  it('answers CORS preflight on every API', async () => {
    for (const api of ['base', 'app'] as const) {
      const response = await call('/directions/v2/', { api, method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-headers')).toMatch(/apikey/);
    }
  });
});
