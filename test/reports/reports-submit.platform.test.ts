import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ISSUE_TYPES, RECOGNISED_SUBTYPES } from '../../functions/reports/fields.ts';
import { later, newRider, refreshTokens, registerApp, riderAccessToken, tokensFor } from '../oauth/oauth-support.ts';
import {
  bearer,
  enterpriseKey,
  fileReport,
  inReview,
  keyed,
  partnerKey,
  rateBucket,
  readReport,
  RUSSELL_SQUARE,
  storedReport,
  type Credential,
} from './reports-support.ts';
import { awayFromWindowEdge, call, newKey, platform } from '../support/running-platform.ts';

/** POST /reports/ and GET /reports/{id} (spec 4.4): fields, credentials, attribution, visibility, limits. */

const valid = { issue_type: 'road_closed', issue_subtype: 'barrier_gate', location: RUSSELL_SQUARE };

describe('POST /reports/', () => {
  it('answers 200 {id, status: received, created_at} at once, with CORS for any origin', async () => {
    const response = await fileReport(keyed(await enterpriseKey()), { ...valid, description: 'Gate locked across the path', road_name: 'Russell Square' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['created_at', 'id', 'status']);
    expect(response.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(response.body.status).toBe('received');
    expect(new Date(response.body.created_at).toISOString()).toBe(response.body.created_at);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    for (const path of ['/reports/', `/reports/${response.body.id}/`]) {
      const preflight = await call(path, { method: 'OPTIONS', headers: { Origin: 'https://any-app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' } });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    }
    const stored = await storedReport(response.body.id);
    expect(stored).toMatchObject({
      issue_type: 'road_closed',
      issue_subtype: 'barrier_gate',
      location: RUSSELL_SQUARE,
      description: 'Gate locked across the path',
      road_name: 'Russell Square',
      city: 'london',
      created_at: response.body.created_at,
    });
  });

  it('answers 401 to anonymous callers and to a made-up key', async () => {
    expect(await call('/reports/', { body: valid })).toMatchObject({ status: 401, body: { error: 'Authentication credentials were not provided.' } });
    expect((await fileReport({ apikey: 'spk_0000000000000000_not-a-real-secret-at-all-0000000000000000000' }, valid)).status).toBe(401);
  });

  it('answers 405 with Allow to other methods on the collection, and on a report', async () => {
    const key = await enterpriseKey();
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const response = await call('/reports/', { method, key });
      expect(response.status, method).toBe(405);
      expect(response.body).toEqual({ error: 'Method not allowed' });
      expect(response.headers.get('allow')).toBe('POST');
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await call(`/reports/${randomUUID()}/`, { method, key, ...(method === 'GET' ? {} : { body: valid }) });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
    }
  });

  it('accepts every category, and every recognised subtype under its category', async () => {
    const key = keyed(await enterpriseKey());
    for (const issueType of ISSUE_TYPES) {
      for (const subtype of [...RECOGNISED_SUBTYPES[issueType], 'other', null]) {
        const response = await fileReport(key, { issue_type: issueType, issue_subtype: subtype, location: RUSSELL_SQUARE });
        expect(response.status, `${issueType}/${subtype}`).toBe(200);
      }
    }
  });

  it('stores an unrecognised subtype of up to 64 characters unclassified', async () => {
    const key = keyed(await enterpriseKey());
    const wrongCategory = await fileReport(key, { ...valid, issue_type: 'road_unsafe', issue_subtype: 'barrier_gate' });
    expect(wrongCategory.status).toBe(200);
    expect((await storedReport(wrongCategory.body.id)).issue_subtype).toBe('barrier_gate');
    const longest = await fileReport(key, { ...valid, issue_subtype: 'é'.repeat(64) });
    expect(longest.status).toBe(200);
    expect((await storedReport(longest.body.id)).issue_subtype).toBe('é'.repeat(64));
  });

  describe('refuses every field that breaks its rule with a 400 naming it, and charges nothing for it', () => {
    const cases: [string, unknown, RegExp][] = [
      ['a body that is not JSON', '{not json', /^Invalid JSON body$/],
      ['a JSON array', [valid], /must be a JSON object/],
      ['no issue_type', { location: RUSSELL_SQUARE }, /^issue_type: required$/],
      ['an unknown issue_type', { ...valid, issue_type: 'pothole' }, /^issue_type: must be one of road_closed, road_unsafe, bad_routing, unclear_instructions, unpleasant, other$/],
      ['issue_type in capitals', { ...valid, issue_type: 'ROAD_CLOSED' }, /^issue_type: must be one of/],
      ['no location', { issue_type: 'other' }, /^location: required$/],
      ['a location that is not a pair', { ...valid, location: [-0.12] }, /^location: must be \[longitude, latitude\]$/],
      ['a location with three numbers', { ...valid, location: [-0.12, 51.5, 10] }, /^location: must be \[longitude, latitude\]$/],
      ['a location as an object', { ...valid, location: { lon: -0.12, lat: 51.5 } }, /^location: must be \[longitude, latitude\]$/],
      ['a longitude beyond 180', { ...valid, location: [180.5, 51.5] }, /^location\[0\]: longitude must be between -180 and 180$/],
      ['a latitude beyond -90', { ...valid, location: [-0.12, -90.01] }, /^location\[1\]: latitude must be between -90 and 90$/],
      ['a latitude given as text', { ...valid, location: [-0.12, '51.5'] }, /^location\[1\]: latitude must be a number$/],
      ['a description of 2,001 characters', { ...valid, description: 'x'.repeat(2_001) }, /^description: must be at most 2,000 characters$/],
      ['a description that is a number', { ...valid, description: 42 }, /^description: must be a string$/],
      ['a road_name of 201 characters', { ...valid, road_name: 'r'.repeat(201) }, /^road_name: must be at most 200 characters$/],
      ['an unrecognised subtype of 65 characters', { ...valid, issue_subtype: 's'.repeat(65) }, /^issue_subtype: is not a recognised subtype of road_closed and is longer than 64 characters$/],
      ['a subtype that is not a string', { ...valid, issue_subtype: ['barrier_gate'] }, /^issue_subtype: must be a string$/],
      ['a road_name with a terminal escape sequence', { ...valid, road_name: 'Byng Place\u001b[31m' }, /^road_name: must not contain control characters$/],
      ['a road_name with a line break', { ...valid, road_name: 'Byng\nPlace' }, /^road_name: must not contain control characters$/],
      ['a road_name with a C1 control', { ...valid, road_name: 'Byng\u009b31m' }, /^road_name: must not contain control characters$/],
      ['a description forging a log line', { ...valid, description: 'gate\r\n2026-11-24 INFO report accepted' }, /^description: must not contain control characters other than newline and tab$/],
      ['a description with NUL', { ...valid, description: 'gate\u0000' }, /^description: must not contain control characters other than newline and tab$/],
    ];

    it.each(cases)('%s', async (_, body, message) => {
      await awayFromWindowEdge(86_400, 30);
      const key = await enterpriseKey();
      const response = typeof body === 'string'
        ? await call('/reports/', { method: 'POST', key, rawBody: body, headers: { 'Content-Type': 'application/json' } })
        : await fileReport(keyed(key), body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
      const keyId = key.split('_')[1];
      expect(await rateBucket(`key:${keyId}`)).toBeUndefined();
    });

    it('lists every problem in details when there are several', async () => {
      const response = await fileReport(keyed(await enterpriseKey()), { issue_type: 'nope', location: [500, 500], road_name: 'r'.repeat(300) });
      expect(response.status).toBe(400);
      expect(response.body.details.split('; ')).toEqual([
        expect.stringMatching(/^issue_type: /),
        'location[0]: longitude must be between -180 and 180',
        'location[1]: latitude must be between -90 and 90',
        'road_name: must be at most 200 characters',
      ]);
    });

    it('keeps newlines and tabs in a description', async () => {
      const response = await fileReport(keyed(await enterpriseKey()), { ...valid, description: 'Gate locked\n\tsince Monday' });
      expect(response.status).toBe(200);
      expect((await storedReport(response.body.id)).description).toBe('Gate locked\n\tsince Monday');
    });

    it('counts characters, not UTF-16 units: 2,000 emoji are a valid description', async () => {
      const response = await fileReport(keyed(await enterpriseKey()), { ...valid, description: '🚲'.repeat(2_000), road_name: '🚧'.repeat(200) });
      expect(response.status).toBe(200);
    });
  });

  describe('source', () => {
    it('is required from a partner key, must be well formed, and must be the slug agreed for the key', async () => {
      const source = `acme-${randomUUID().slice(0, 8)}`;
      const key = keyed(await partnerKey(source));
      expect((await fileReport(key, valid)).body.error).toBe(`source: required for partner keys (this key's is "${source}")`);
      for (const bad of ['A', 'x', 'has space', 'UPPER-case', 'y'.repeat(33), 12]) {
        const response = await fileReport(key, { ...valid, source: bad });
        expect(response.status, String(bad)).toBe(400);
        expect(response.body.error).toBe('source: must be 2-32 characters of a-z, 0-9, _ and -');
      }
      const other = await fileReport(key, { ...valid, source: 'someone-else' });
      expect(other.status).toBe(400);
      expect(other.body.error).toBe(`source: must be "${source}", the source agreed for this key`);
      const accepted = await fileReport(key, { ...valid, source });
      expect(accepted.status).toBe(200);
      expect(await storedReport(accepted.body.id)).toMatchObject({ channel: 'api', source });
    });

    it('is optional from other keys, checked when sent, and attributes nothing', async () => {
      const key = keyed(await enterpriseKey());
      expect((await fileReport(key, valid)).status).toBe(200);
      expect((await fileReport(key, { ...valid, source: 'Not A Slug' })).status).toBe(400);
      const sent = await fileReport(key, { ...valid, source: 'acme-maps' });
      expect(sent.status).toBe(200);
      expect((await storedReport(sent.body.id)).source).toBeUndefined();
    });

    it('is ignored for a rider session and for an app acting for a rider, whatever it holds', async () => {
      const rider = bearer(await riderAccessToken(await newRider()));
      const fromRider = await fileReport(rider, { ...valid, source: 'NOT a slug!' });
      expect(fromRider.status).toBe(200);
      expect((await storedReport(fromRider.body.id)).source).toBeUndefined();
      const app = bearer((await tokensFor(await registerApp())).access_token);
      const fromApp = await fileReport(app, { ...valid, source: 42 });
      expect(fromApp.status).toBe(200);
    });
  });
});

describe('attribution and who reads a report back', () => {
  it('a rider session files the rider\'s report; an app\'s OAuth token files the rider\'s report attributed to the app', async () => {
    const rider = await newRider();
    const app = await registerApp();
    const session = { Authorization: `Bearer ${await riderAccessToken(rider)}` };
    const appToken = { Authorization: `Bearer ${(await tokensFor(app, rider)).access_token}` };

    const own = await fileReport(session, valid);
    expect(own.status).toBe(200);
    expect(await storedReport(own.body.id)).toMatchObject({ channel: 'rider', rider_id: rider.sub });
    const viaApp = await fileReport(appToken, valid);
    expect(viaApp.status).toBe(200);
    expect(viaApp.headers.get('access-control-allow-origin')).toBe('*');
    const stored = await storedReport(viaApp.body.id);
    expect(stored).toMatchObject({ channel: 'app', rider_id: rider.sub, client_id: app.clientId });
    expect(stored.key_id).toBeUndefined();

    // Both are the rider's ("My reports"): either credential reads either report.
    for (const credential of [session, appToken]) {
      for (const id of [own.body.id, viaApp.body.id]) expect((await readReport(credential, id)).status).toBe(200);
    }

    // Analysed; and nothing about the rider or their tokens is in the platform's log.
    await inReview(session, own.body.id);
    await inReview(session, viaApp.body.id);
    const log = await readFile(platform.logFile, 'utf8');
    expect(log).toContain(`"reportId":"${viaApp.body.id}"`);
    for (const secret of [rider.sub, rider.email, session.Authorization.slice(7), appToken.Authorization.slice(7)]) {
      expect(log.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
    }
  });

  it('answers the spec\'s fields on both paths, with and without the trailing slash', async () => {
    const key = keyed(await enterpriseKey());
    const { body: created } = await fileReport(key, valid);
    for (const path of [`/reports/${created.id}`, `/reports/${created.id}/`]) {
      const response = await readReport(key, created.id, path);
      expect(response.status, path).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['created_at', 'id', 'issue_type', 'status', 'summary', 'updated_at']);
      expect(response.body).toMatchObject({ id: created.id, issue_type: 'road_closed', created_at: created.created_at });
      expect(['received', 'in_review']).toContain(response.body.status);
    }
  });

  it('answers 404, the same 404, for every report the caller may not read and for ids that do not exist', async () => {
    const source = `partner-${randomUUID().slice(0, 8)}`;
    const partnerA = keyed(await partnerKey(source));
    const partnerA2 = keyed(await partnerKey(source));
    const partnerB = keyed(await partnerKey(`other-${randomUUID().slice(0, 8)}`));
    const keyA = keyed(await enterpriseKey());
    const keyB = keyed(await newKey());
    const riderA = await newRider();
    const riderASession = bearer(await riderAccessToken(riderA));
    const riderB = bearer(await riderAccessToken(await newRider()));
    const appForB = bearer((await tokensFor(await registerApp())).access_token);

    const byPartner = (await fileReport(partnerA, { ...valid, source })).body.id;
    const byKey = (await fileReport(keyA, valid)).body.id;
    const byRider = (await fileReport(riderASession, valid)).body.id;

    const readable: [string, Credential, string][] = [
      ['the partner key that filed it', partnerA, byPartner],
      ['another key of the same partner source', partnerA2, byPartner],
      ['the key that filed it', keyA, byKey],
      ['the rider who filed it', riderASession, byRider],
    ];
    for (const [who, credential, id] of readable) expect((await readReport(credential, id)).status, who).toBe(200);

    const hidden: [string, Credential, string][] = [
      ['a partner of another source', partnerB, byPartner],
      ['a key without the source', keyB, byPartner],
      ['another key', keyB, byKey],
      ['a partner, for a key\'s report outside its source', partnerA, byKey],
      ['a key, for a rider\'s report', keyA, byRider],
      ['a partner, for a rider\'s report', partnerA, byRider],
      ['another rider', riderB, byRider],
      ['an app acting for another rider', appForB, byRider],
      ['a rider, for a key\'s report', riderB, byKey],
      ['an app, for a partner\'s report', appForB, byPartner],
      ['anyone, for an id never issued', keyA, randomUUID()],
      ['anyone, for an id that is not a UUID', keyA, 'not-a-report'],
    ];
    for (const [who, credential, id] of hidden) {
      const response = await readReport(credential, id);
      expect(response.status, who).toBe(404);
      expect(response.body, who).toEqual({ error: 'Report not found' });
    }
  });

  it('answers 401 to a GET without credentials', async () => {
    expect((await call(`/reports/${randomUUID()}`)).status).toBe(401);
  });
});

describe('60 reports per hour per rider session', () => {
  /**
   * Clock offsets placing request `index` 20 s after the previous one, all inside one hour window
   * of the rate limiter and inside an access token's hour of life: the current hour when enough
   * of it is left, else the next. Three requests a minute never meet a general per-minute limit.
   */
  function oneHour(): (index: number) => Record<string, string> {
    const nowSeconds = Date.now() / 1000;
    const nextHour = (Math.floor(nowSeconds / 3_600) + 1) * 3_600;
    const start = nextHour - nowSeconds >= 1_300 ? nowSeconds + 5 : nextHour + 5;
    return (index) => later(Math.round(start + index * 20 - Date.now() / 1000));
  }

  it('refuses the 61st report of a session within the hour with 429 and Retry-After, costing nothing when validation refuses', async () => {
    const rider = await newRider();
    const token = await riderAccessToken(rider);
    const session = bearer(token);
    const bucketId = `rider:${rider.sub}`;
    const sessionWindows = `reports-${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
    const at = oneHour();

    for (let index = 0; index < 3; index++) {
      expect((await fileReport(session, { ...valid, issue_type: 'pothole' }, at(index))).status).toBe(400);
    }
    expect(await rateBucket(bucketId)).toBeUndefined();

    const filed: string[] = [];
    for (let index = 0; index < 60; index++) {
      const response = await fileReport(session, valid, at(index));
      expect(response.status, `report ${index + 1}`).toBe(200);
      filed.push(response.body.id);
    }
    expect((await rateBucket(bucketId, sessionWindows))!.hour.used).toBe(60);
    expect((await rateBucket(bucketId))!.hour.used).toBe(60);
    const refused = await fileReport(session, valid, at(60));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Rate limit exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.retry_after_seconds).toBe(Number(refused.headers.get('retry-after')));
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // Reading is not filing; another session of the same rider has its own allowance.
    expect((await readReport(session, filed[0]!)).status).toBe(200);
    expect((await fileReport(bearer(await riderAccessToken(rider)), valid, at(60))).status).toBe(200);
  });

  it('holds an app to 60 reports an hour per rider, across its refreshed tokens', async () => {
    const app = await registerApp();
    const { access_token: token, refresh_token: refreshToken, rider } = await tokensFor(app);
    const at = oneHour();
    for (let index = 0; index < 30; index++) {
      expect((await fileReport(bearer(token), valid, at(index))).status, `report ${index + 1}`).toBe(200);
    }
    const refreshed = await refreshTokens(app, refreshToken);
    expect(refreshed.status).toBe(200);
    const next = bearer(refreshed.body.access_token);
    for (let index = 30; index < 60; index++) {
      expect((await fileReport(next, valid, at(index))).status, `report ${index + 1}`).toBe(200);
    }
    expect((await fileReport(next, valid, at(60))).status).toBe(429);
    expect((await rateBucket(`oauth:${app.clientId}:${rider.sub}`, 'reports'))!.hour.used).toBe(60);
  });

  it('does not apply to API keys, which keep their plan\'s limits', async () => {
    const key = await enterpriseKey();
    for (let index = 0; index < 61; index++) expect((await fileReport(keyed(key), valid)).status).toBe(200);
  });
});
