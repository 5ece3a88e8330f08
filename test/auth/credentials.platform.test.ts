import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { API_KEY_RECORD_CACHE_MS, createApiKey, hashApiKey, revokeApiKey, verifyApiKey, type ApiKeyRecord } from '../../functions/auth/api-keys.ts';
import { deriveUsageKey } from '../../functions/auth/usage-keys.ts';
import { USAGE_KEY_SECRET_ENV_VAR } from '../../platform/deployment-settings.ts';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { call, londonPair, newKey, useLocalAws } from '../support/running-platform.ts';

const body = { coordinates: londonPair };
/** Any answer past the authorizer: the handler ran. */
const passedAuthorizer = (status: number) => status !== 401 && status !== 403;

describe('credentials on {base_url}', () => {
  it('refuses a request without credentials with the spec message', async () => {
    const response = await call('/directions/v2/', { body });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Authentication credentials were not provided.' });
  });

  it.each(['nonsense', 'spk_0123456789abcdef_' + 'A'.repeat(43), ''])('refuses an invalid key %j', async (bad) => {
    const response = await call('/directions/v2/', { body, headers: { apikey: bad } });
    expect(response.status).toBe(401);
    expect(response.body.error).toMatch(bad ? /^Invalid credentials$/ : /not provided/);
  });

  it('refuses a key whose secret part was altered', async () => {
    const key = await newKey();
    const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect((await call('/directions/v2/', { body, key: altered })).status).toBe(401);
  });

  it('meters a key by a usage-plan key derived from its id, never by the key itself', async () => {
    useLocalAws();
    const { key, record } = await createApiKey({ name: 'usage key', plan: 'free' });
    const secret = 'usage-key secret of this test';
    const previous = process.env[USAGE_KEY_SECRET_ENV_VAR];
    process.env[USAGE_KEY_SECRET_ENV_VAR] = secret;
    try {
      const { handler } = await import('../../functions/authorizer/authorizer-handler.ts');
      const answer = await handler({
        type: 'REQUEST', resource: '/directions/v2', path: '/directions/v2', httpMethod: 'POST',
        methodArn: 'arn:aws:execute-api:us-east-1:000000000000:test/local/POST/directions/v2', headers: { apikey: key },
      } as unknown as APIGatewayRequestAuthorizerEvent);
      expect(answer.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
      expect(answer.usageIdentifierKey).toBe(deriveUsageKey(secret, record.key_id));
      // The key's secret is all that follows `spk_<key id>_`: base64url, so it may hold `_` itself,
      // and splitting on `_` could yield a fragment short enough to occur in any hex digest.
      const keySecret = key.slice(`spk_${record.key_id}_`.length);
      expect(keySecret).toHaveLength(43);
      expect(answer.usageIdentifierKey).not.toContain(keySecret);
    } finally {
      if (previous === undefined) delete process.env[USAGE_KEY_SECRET_ENV_VAR];
      else process.env[USAGE_KEY_SECRET_ENV_VAR] = previous;
    }
  });

  it('accepts the key in the apikey header and in the Authorization forms', async () => {
    const key = await newKey({ name: 'forms', plan: 'enterprise', limits: { perMinute: 50, perHour: 50, perDay: 50 } });
    const forms: Record<string, string>[] = [{ apikey: key }, { Authorization: key }, { Authorization: `Api-Key ${key}` }, { Authorization: `Bearer ${key}` }];
    for (const headers of forms) {
      const response = await call('/directions/v2/', { body, headers });
      expect(passedAuthorizer(response.status), JSON.stringify(Object.keys(headers))).toBe(true);
    }
  });

  it('refuses a bearer token that is not a credential of this platform', async () => {
    const response = await call('/directions/v2/', { body, headers: { Authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid credentials' });
  });

  it('refuses a revoked key once the platform\'s cached record of it has aged out', async () => {
    const key = await newKey();
    expect(passedAuthorizer((await call('/directions/v2/', { body, key })).status)).toBe(true);
    await revokeApiKey(key.split('_')[1]!);
    // The same request API_KEY_RECORD_CACHE_MS later on the platform's clock (SPOKE_TEST_CLOCK).
    const later = { 'X-Spoke-Test-Clock-Offset': String(API_KEY_RECORD_CACHE_MS / 1000) };
    const response = await call('/directions/v2/', { body, key, headers: later });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid credentials' });
  });

  it('lets the public fallback answer without credentials', async () => {
    expect((await call('/directions/v3/', { method: 'POST', body })).status).toBe(404);
  });
});

describe('the warm container\'s cache of key records (controlled clock, real table)', () => {
  const start = Date.UTC(2026, 10, 24, 12);

  it('serves a revoked key within API_KEY_RECORD_CACHE_MS of its last read and refuses it from then on', async () => {
    useLocalAws();
    const { key, record } = await createApiKey({ name: 'cache bound', plan: 'free' });
    let clock = start;
    const now = () => clock;
    expect((await verifyApiKey(key, now))?.key_id).toBe(record.key_id);
    await revokeApiKey(record.key_id);
    clock = start + API_KEY_RECORD_CACHE_MS - 1;
    expect((await verifyApiKey(key, now))?.key_id).toBe(record.key_id);
    clock = start + API_KEY_RECORD_CACHE_MS;
    expect(await verifyApiKey(key, now)).toBeNull();
    clock = start + API_KEY_RECORD_CACHE_MS + 1;
    expect(await verifyApiKey(key, now)).toBeNull();
  });

  it('compares the secret on every request: an altered key is refused while the record is cached', async () => {
    useLocalAws();
    const { key, record } = await createApiKey({ name: 'cache secret', plan: 'free' });
    const now = () => start;
    expect((await verifyApiKey(key, now))?.key_id).toBe(record.key_id);
    const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(await verifyApiKey(altered, now)).toBeNull();
    expect((await verifyApiKey(key, now))?.key_id).toBe(record.key_id);
  });

  it('remembers a key id without a record for API_KEY_RECORD_CACHE_MS: a record stored under it then works', async () => {
    useLocalAws();
    const keyId = randomBytes(8).toString('hex');
    const key = `spk_${keyId}_${randomBytes(32).toString('base64url')}`;
    let clock = start;
    const now = () => clock;
    expect(await verifyApiKey(key, now)).toBeNull();
    const record: ApiKeyRecord = { key_id: keyId, key_hash: hashApiKey(key), name: 'stored later', plan: 'free', limits: { perMinute: 10, perHour: 100, perDay: 1000 }, status: 'active', created_at: new Date(start).toISOString() };
    await dynamo().send(new PutCommand({ TableName: tableName('apiKeys'), Item: record }));
    clock = start + API_KEY_RECORD_CACHE_MS - 1;
    expect(await verifyApiKey(key, now)).toBeNull();
    clock = start + API_KEY_RECORD_CACHE_MS;
    expect((await verifyApiKey(key, now))?.key_id).toBe(keyId);
  });

  it('a newly created key works on its first request: its random id was never presented before', async () => {
    useLocalAws();
    const now = () => start;
    // A flood of invented ids just before the key is created.
    for (let i = 0; i < 20; i++) expect(await verifyApiKey(`spk_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`, now)).toBeNull();
    const { key, record } = await createApiKey({ name: 'created after a flood', plan: 'free' });
    expect((await verifyApiKey(key, now))?.key_id).toBe(record.key_id);
  });

  it('a flood of invalid keys costs one read per key id and API_KEY_RECORD_CACHE_MS, and none for malformed ones', async () => {
    useLocalAws();
    const keyId = randomBytes(8).toString('hex');
    const invalid = `spk_${keyId}_${randomBytes(32).toString('base64url')}`;
    const reads = countKeyReads();
    try {
      let clock = start;
      const now = () => clock;
      const malformed = ['spk_short', `spk_${keyId}_tooshort`, 'x'.repeat(200), `spk_${keyId.toUpperCase()}_${randomBytes(32).toString('base64url')}`];
      for (const key of malformed) expect(await verifyApiKey(key, now)).toBeNull();
      expect(reads.all()).toBe(0);
      expect((await Promise.all(Array.from({ length: 50 }, () => verifyApiKey(invalid, now)))).every((found) => found === null)).toBe(true);
      clock = start + API_KEY_RECORD_CACHE_MS - 1;
      for (let i = 0; i < 50; i++) await verifyApiKey(invalid, now);
      expect(reads.of(keyId)).toBe(1);
      clock = start + API_KEY_RECORD_CACHE_MS;
      await verifyApiKey(invalid, now);
      expect(reads.of(keyId)).toBe(2);
    } finally {
      reads.stop();
    }
  });

  it('reads a key\'s record once per API_KEY_RECORD_CACHE_MS, however many requests arrive together', async () => {
    useLocalAws();
    const { key, record } = await createApiKey({ name: 'cache reads', plan: 'free' });
    const client = dynamo();
    let reads = 0;
    const name = `countKeyReads-${record.key_id}`;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        // Before or after the document client's marshalling: `{key_id: "…"}` or `{key_id: {S: "…"}}`.
        const input = args.input as { TableName?: string; Key?: unknown };
        const isRead = /^Get(Item)?Command$/.test(String(context.commandName));
        if (isRead && input.TableName === tableName('apiKeys') && JSON.stringify(input.Key).includes(record.key_id)) reads++;
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      let clock = start;
      const now = () => clock;
      const verified = await Promise.all(Array.from({ length: 50 }, () => verifyApiKey(key, now)));
      expect(verified.every((found) => found?.key_id === record.key_id)).toBe(true);
      expect(reads).toBe(1);
      clock = start + API_KEY_RECORD_CACHE_MS - 1;
      await Promise.all(Array.from({ length: 10 }, () => verifyApiKey(key, now)));
      expect(reads).toBe(1);
      clock = start + API_KEY_RECORD_CACHE_MS;
      await Promise.all(Array.from({ length: 10 }, () => verifyApiKey(key, now)));
      expect(reads).toBe(2);
      // A clock that reads earlier than the cached read (a test's moved clock) reads again.
      clock = start;
      await verifyApiKey(key, now);
      expect(reads).toBe(3);
    } finally {
      client.middlewareStack.remove(name);
    }
    // The table still holds the record the cache was filled from.
    const stored = await dynamo().send(new GetCommand({ TableName: tableName('apiKeys'), Key: { key_id: record.key_id } }));
    expect(stored.Item?.status).toBe('active');
  });
});

/** Counts the reads of the API keys table from now on: in all, and of one key id. */
function countKeyReads(): { all(): number; of(keyId: string): number; stop(): void } {
  const client = dynamo();
  const keys: string[] = [];
  const name = `countAllKeyReads-${randomBytes(4).toString('hex')}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string; Key?: unknown };
      if (/^Get(Item)?Command$/.test(String(context.commandName)) && input.TableName === tableName('apiKeys')) keys.push(JSON.stringify(input.Key));
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    all: () => keys.length,
    of: (keyId) => keys.filter((key) => key.includes(keyId)).length,
    stop: () => client.middlewareStack.remove(name),
  };
}
