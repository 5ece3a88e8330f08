import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import type { OperationExamples } from '../../functions/openapi/examples.ts';
import recorded from '../../functions/openapi/examples.json' with { type: 'json' };
import { Contract } from '../support/contract.ts';
import { inReview, keyed } from '../reports/reports-support.ts';
import { refreshTokens, registerApp, tokensFor } from '../oauth/oauth-support.ts';
import { app, signedInRider, uploadPhoto } from '../riders/rider-support.ts';
import { call, newKey, platform } from '../support/running-platform.ts';

/**
 * The documents' examples are real: one request of every operation that takes a JSON or form
 * body, and the platform's answer to it, made here against the local platform. Every answer is
 * held to the documents on the way (contract-setup.ts). `npm run openapi:examples` runs this file
 * with SPOKE_RECORD_EXAMPLES=1 and writes them to functions/openapi/examples.json; otherwise the
 * examples stored there are checked against the schemas the platform serves now.
 */

const recording = process.env.SPOKE_RECORD_EXAMPLES === '1';
const examples: Record<string, OperationExamples> = {};
const record = (operationId: string, status: number, response: unknown, request?: unknown) => {
  const entry = (examples[operationId] ??= { responses: {} });
  entry.responses[String(status)] = response;
  if (request !== undefined) entry.request = request;
};

/** A short trip: the examples stay readable. */
const LONDON_TRIP = { start: [-0.1296, 51.5247], end: [-0.1316, 51.525] };
const DEPARTURE = '2026-06-15T08:30';

describe('the examples of the OpenAPI documents', () => {
  it('are answers of every operation that takes or gives JSON, made on this platform', async () => {
    const key = await newKey({ name: 'openapi examples', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
    const post = async (operationId: string, path: string, body: unknown, expected = 200) => {
      const answer = await call(path, { key, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(expected);
      record(operationId, answer.status, answer.body, body);
      return answer.body;
    };

    const directions = { coordinates: [LONDON_TRIP.start, LONDON_TRIP.end], departure_time: DEPARTURE };
    await post('directions', '/directions/v2/', directions);
    const crossCity = { coordinates: [[-0.1337, 51.5246], [-73.9899, 40.6955]] };
    const refused = await call('/directions/v2/', { key, body: crossCity });
    record('directions', refused.status, refused.body);
    await post('multiModal', '/multi-modal/v2/', { ...LONDON_TRIP, departure_time: DEPARTURE });
    await post('explainSupersafe', '/explain-supersafe/', { coordinates: [[-74.006, 40.7128], [-73.9899, 40.6955]], departure_time: DEPARTURE, language: 'es' });
    const report = await post('submitReport', '/reports/', { issue_type: 'road_unsafe', issue_subtype: 'poor_bike_lane', location: [-0.1305, 51.5243], road_name: 'Gordon Square', description: 'The lane is faded at the corner.' });
    const keyedReport = { issue_type: 'road_closed', issue_subtype: 'construction', location: [-0.1305, 51.5243], road_name: 'Gordon Square' };
    const idempotencyKey = { 'Idempotency-Key': `"${randomUUID()}"` };
    expect((await call('/reports/', { key, body: keyedReport, headers: idempotencyKey })).status).toBe(200);
    const reused = await call('/reports/', { key, body: { ...keyedReport, description: 'Another body under the same key.' }, headers: idempotencyKey });
    expect(reused.status, JSON.stringify(reused.body)).toBe(422);
    record('submitReport', reused.status, reused.body);
    record('getReport', 200, await inReview(keyed(key), report.id));
    const unknown = await call('/reports/00000000-0000-4000-8000-000000000000/', { key });
    record('getReport', unknown.status, unknown.body);

    const metadata = await call('/.well-known/oauth-authorization-server');
    record('authorizationServerMetadata', metadata.status, metadata.body);
    const jwks = await call('/auth/v1/oauth/jwks');
    record('jwks', jwks.status, jwks.body);
    const thirdParty = await registerApp('public');
    const { refresh_token: first } = await tokensFor(thirdParty);
    const refreshed = await refreshTokens(thirdParty, first);
    expect(refreshed.status).toBe(200);
    record('token', 200, refreshed.body, { grant_type: 'refresh_token', refresh_token: first, client_id: thirdParty.clientId });
    const tokens = refreshed.body as { refresh_token: string };
    const badGrant = await fetch(`${platform.base_url}/auth/v1/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: thirdParty.redirectUri, code_verifier: 'x'.repeat(43), client_id: thirdParty.clientId }),
    });
    record('token', badGrant.status, await badGrant.json());
    const revoked = await fetch(`${platform.base_url}/auth/v1/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: tokens.refresh_token, client_id: thirdParty.clientId }) });
    record('revoke', revoked.status, await revoked.json(), { token: tokens.refresh_token, client_id: thirdParty.clientId });

    const rider = await signedInRider();
    const ok = (answer: { status: number; body: any }, expected = 200) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(expected);
      return answer;
    };
    const profileUpdate = { home_address: '12 Gordon Square, London', home_coords: '-0.1316,51.5250' };
    record('updateProfile', 200, ok(await app('/user/', rider, { method: 'PATCH', body: profileUpdate })).body, profileUpdate);
    const badUpdate = await app('/user/', rider, { method: 'PATCH', body: { home_coords: 'home' } });
    record('updateProfile', badUpdate.status, badUpdate.body);
    record('getProfile', 200, ok(await app('/user/', rider)).body);
    const photo = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#1971c2' } }).jpeg().toBuffer();
    record('uploadProfilePhoto', 200, ok(await uploadPhoto(rider, photo)).body);
    const ride = {
      polyline: polyline.encode([[51.5247, -0.1296], [51.525, -0.1316]], 5),
      date_started: '2026-06-15T07:30:00Z',
      local_timezone: 'Europe/London',
      distance_traveled: 230,
      duration_traveled: 75,
      destination_name: 'Gordon Square',
    };
    const created = ok(await app('/user/routes/', rider, { method: 'POST', body: ride }), 201).body;
    record('recordRide', 201, created, ride);
    record('listRides', 200, ok(await app('/user/routes/?page=1&limit=10', rider)).body);
    record('getRide', 200, ok(await app(`/user/routes/${created.id}/`, rider)).body);
    record('getRiderStats', 200, ok(await app('/user/stats/?tz=Europe/London', rider)).body);
    record('searchRiders', 200, ok(await app(`/api/users/search/?q=${encodeURIComponent(rider.name.slice(0, 8))}`, rider)).body);
    record('bikesNearby', 200, ok(await app('/bikes/nearby/?latitude=51.5246&longitude=-0.1337&radius=300&limit=2', rider)).body);
    record('eventsNearby', 200, ok(await call('/events/nearby/?latitude=51.5228&longitude=-0.1249&radius=200', { api: 'app' })).body);

    if (recording) {
      await writeFile(join(projectRoot, 'functions/openapi/examples.json'), `${JSON.stringify(examples, null, 2)}\n`);
    } else {
      // The stored examples are of the same operations and statuses, and still fit what the platform serves.
      const stored = recorded as Record<string, OperationExamples>;
      const shape = (all: Record<string, OperationExamples>) => Object.fromEntries(Object.entries(all).map(([id, entry]) => [id, [entry.request !== undefined, Object.keys(entry.responses).sort()]]));
      expect(shape(stored)).toEqual(shape(examples));
      const documents = await Promise.all([platform.base_url, platform.app_base_url].map(async (baseUrl) => ({ baseUrl, document: (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown> })));
      const problems = new Contract(documents).exampleProblems(stored);
      expect(problems).toEqual([]);
    }
  }, 120_000);
});
