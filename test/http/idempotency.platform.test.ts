import polyline from '@mapbox/polyline';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../platform/aws.ts';
import { scanAll } from '../../platform/dynamo-pages.ts';
import { tableName } from '../../platform/resources.ts';
import { newRider, registerApp, riderAccessToken, tokensFor } from '../oauth/oauth-support.ts';
import { bearer, enterpriseKey, fileReport, keyed, rateBucket, RUSSELL_SQUARE, storedReport, type Credential } from '../reports/reports-support.ts';
import { app, signedInRider } from '../riders/rider-support.ts';
import { call, newKey, platform, useLocalAws } from '../support/running-platform.ts';

/**
 * `Idempotency-Key` on POST /reports/ and POST /user/routes/ (IETF httpapi idempotency-key draft):
 * a repeat gets the first answer, the same key with another body 422, a repeat while the first is
 * running 409, keys belong to their caller, malformed keys 400.
 */

const report = (description: string) => ({ issue_type: 'road_closed', issue_subtype: 'barrier_gate', location: RUSSELL_SQUARE, description });
const withKey = (key: string) => ({ 'Idempotency-Key': key });

/** Every stored report whose description is `marker` (each test files its own). */
async function reportsDescribed(marker: string): Promise<Record<string, unknown>[]> {
  useLocalAws();
  return scanAll({ TableName: tableName('reports'), FilterExpression: 'description = :marker', ExpressionAttributeValues: { ':marker': marker } });
}

describe('Idempotency-Key on POST /reports/', () => {
  it('two submissions with one key file one report and answer the same id and status; the repeat is marked replayed', async () => {
    const credential = keyed(await enterpriseKey());
    const marker = `idempotent ${randomUUID()}`;
    const key = randomUUID();
    const first = await fileReport(credential, report(marker), withKey(key));
    const second = await fileReport(credential, report(marker), withKey(key));
    expect(first.status).toBe(200);
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('access-control-expose-headers')).toContain('Idempotent-Replayed');
    expect(await reportsDescribed(marker)).toHaveLength(1);
    expect((await storedReport(first.body.id)).description).toBe(marker);
    // The draft's structured-field form, "key", names the same key.
    expect((await fileReport(credential, report(marker), withKey(`"${key}"`))).body).toEqual(first.body);
    // Without a key, the same body is a new report.
    const unkeyed = await fileReport(credential, report(marker));
    expect(unkeyed.body.id).not.toBe(first.body.id);
    expect(await reportsDescribed(marker)).toHaveLength(2);
  });

  it('lets browser apps send the header (preflight) and read Idempotent-Replayed', async () => {
    const preflight = await call('/reports/', {
      method: 'OPTIONS',
      headers: { Origin: 'https://any-app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,idempotency-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
  });

  it('keeps the first answer for 24 hours in the idempotency table, keyed by a hash, with nothing of the caller in clear', async () => {
    const key = await enterpriseKey();
    const idempotencyKey = randomUUID();
    const filed = await fileReport(keyed(key), report(`kept ${randomUUID()}`), withKey(idempotencyKey));
    useLocalAws();
    const items = (await dynamo().send(new ScanCommand({ TableName: tableName('idempotency') }))).Items ?? [];
    const record = items.find((item) => typeof item.data === 'object' && String((item.data as { body?: string }).body).includes(filed.body.id));
    expect(record).toBeDefined();
    expect(record!.status).toBe('COMPLETED');
    expect(record!.expiration - Math.round(Date.parse(filed.body.created_at) / 1000)).toBeGreaterThanOrEqual(24 * 3600 - 2);
    expect(record!.expiration - Math.round(Date.parse(filed.body.created_at) / 1000)).toBeLessThanOrEqual(24 * 3600 + 2);
    expect(record!.data.statusCode).toBe(200);
    const keyId = key.split('_')[1]!;
    expect(JSON.stringify(record)).not.toContain(keyId);
    expect(JSON.stringify(record)).not.toContain(idempotencyKey);
  });

  it('answers 422 to the same key with another body, and files nothing more', async () => {
    const credential = keyed(await enterpriseKey());
    const marker = `reused ${randomUUID()}`;
    const key = randomUUID();
    expect((await fileReport(credential, report(marker), withKey(key))).status).toBe(200);
    const reused = await fileReport(credential, { ...report(marker), road_name: 'Russell Square' }, withKey(key));
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({
      error: 'Idempotency-Key was already used with a different request body; send a new key for a new request',
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await reportsDescribed(marker)).toHaveLength(1);
  });

  it('answers 409 to repeats sent while the first is still running; all that succeed answer one report', async () => {
    const credential = keyed(await enterpriseKey());
    const marker = `concurrent ${randomUUID()}`;
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => fileReport(credential, report(marker), withKey(key))));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 409), statuses.join()).toBe(true);
    const ids = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    for (const busy of answers.filter((answer) => answer.status === 409)) {
      expect(busy.body).toEqual({ error: 'A request with this Idempotency-Key is still in progress; retry after it has finished', code: 'IDEMPOTENCY_KEY_IN_USE' });
    }
    expect(await reportsDescribed(marker)).toHaveLength(1);
    // Once it has finished, every repeat gets the answer.
    const after = await fileReport(credential, report(marker), withKey(key));
    expect(after.status).toBe(200);
    expect(ids.has(after.body.id)).toBe(true);
  });

  it("scopes keys to their caller: another key, a rider, or an app for that rider never gets another's answer", async () => {
    const key = randomUUID();
    const marker = `scoped ${randomUUID()}`;
    const rider = await newRider();
    const application = await registerApp();
    const callers: Credential[] = [
      keyed(await enterpriseKey()),
      keyed(await enterpriseKey()),
      bearer(await riderAccessToken(rider)),
      bearer((await tokensFor(application, rider)).access_token),
    ];
    const ids: string[] = [];
    for (const caller of callers) {
      const answer = await fileReport(caller, report(marker), withKey(key));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      ids.push(answer.body.id);
    }
    expect(new Set(ids).size).toBe(callers.length);
    expect(await reportsDescribed(marker)).toHaveLength(callers.length);
    // A second session of the same rider is the same caller.
    const again = await fileReport(bearer(await riderAccessToken(rider)), report(marker), withKey(key));
    expect(again.body.id).toBe(ids[2]);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['non-ASCII', 'clé-ünïcode'],
    ['a quote inside', 'a"b'],
    ['only quotes', '""'],
    ['a control character', 'key\u0007'],
  ])('refuses a key that is %s with 400, charging nothing', async (_, value) => {
    const key = await newKey({ name: 'bad idempotency keys', plan: 'enterprise', limits: { perMinute: 100, perHour: 1_000, perDay: 10_000 } });
    const marker = `refused ${randomUUID()}`;
    let response;
    try {
      response = await fileReport(keyed(key), report(marker), withKey(value));
    } catch {
      // fetch itself refuses some header values (a control character): nothing reached the platform.
      return;
    }
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/^Idempotency-Key: must be 1 to 255 characters/);
    expect(await rateBucket(`key:${key.split('_')[1]}`)).toBeUndefined();
    expect(await reportsDescribed(marker)).toHaveLength(0);
  });

  it('accepts a key of 255 characters of every allowed kind', async () => {
    const key = 'A-z_0.9:~+/='.repeat(22).slice(0, 255);
    expect(key).toHaveLength(255);
    expect((await fileReport(keyed(await enterpriseKey()), report(`long key ${randomUUID()}`), withKey(key))).status).toBe(200);
  });

  it('refuses the header sent twice with 400', async () => {
    const apikey = await enterpriseKey();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = request(`${platform.base_url}/reports/`, { method: 'POST' }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      sent.on('error', reject);
      sent.setHeader('apikey', apikey);
      sent.setHeader('Content-Type', 'application/json');
      sent.setHeader('Idempotency-Key', ['one', 'two']);
      sent.end(JSON.stringify(report(`twice ${randomUUID()}`)));
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'Idempotency-Key: send it once' });
  });

  it('checks the body before the key: an invalid body answers its own 400 and records nothing', async () => {
    const credential = keyed(await enterpriseKey());
    const key = randomUUID();
    const invalid = await fileReport(credential, { issue_type: 'pothole', location: RUSSELL_SQUARE }, withKey(key));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^issue_type: /);
    // The key is still free for a valid request.
    expect((await fileReport(credential, report(`after invalid ${randomUUID()}`), withKey(key))).status).toBe(200);
  });
});

describe('Idempotency-Key on POST /user/routes/', () => {
  const ride = (destination: string) => ({
    polyline: polyline.encode([[51.5246, -0.1337], [51.5226, -0.1301], [51.5219, -0.1246]], 5),
    date_started: '2026-03-02T08:15:00Z',
    local_timezone: 'Europe/London',
    distance_traveled: 1250.5,
    duration_traveled: 420,
    destination_name: destination,
  });

  it('two recordings with one key store one ride and answer the same 201; another body answers 422', async () => {
    const rider = await signedInRider();
    const key = randomUUID();
    const post = (body: unknown, idempotencyKey = key) => app('/user/routes/', rider, { method: 'POST', body, headers: withKey(idempotencyKey) });
    const first = await post(ride('British Museum'));
    const second = await post(ride('British Museum'));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const history = await app('/user/routes/', rider, { headers: withKey(key) });
    expect(history.status).toBe(200);
    expect((Array.isArray(history.body) ? history.body : history.body.routes).map((entry: { id: number }) => entry.id)).toEqual([first.body.id]);
    const reused = await post(ride('Somewhere else'));
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Another rider's same key is their own.
    const other = await app('/user/routes/', await signedInRider(), { method: 'POST', body: ride('British Museum'), headers: withKey(key) });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });
});
