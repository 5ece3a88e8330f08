import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../functions/auth/api-keys.ts';
import { LOCAL_CREDENTIALS, localTableName } from '../../lib/local/provision.ts';
import { startLocalPlatform, type LocalPlatform } from '../../lib/local/launch.ts';
import { tables } from '../../platform/resources.ts';

/** Faults inside a function: the caller gets the spec's 500 and nothing about the internals. */
describe('unexpected failures', () => {
  let platform: LocalPlatform;
  const logs: string[] = [];

  beforeAll(async () => {
    platform = await startLocalPlatform({
      stateDir: await mkdtemp(join(tmpdir(), 'spoke-fail-')),
      ports: { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 },
      log: (line) => logs.push(line),
    });
  });
  afterAll(() => platform.stop());

  it('answers 503 ROUTING_UNAVAILABLE when no graph can be loaded, distinct from a null route', async () => {
    const { key } = await createApiKey({ name: 'no graphs', plan: 'free' });
    const response = await fetch(`${platform.urls.base}/directions/v2/`, {
      method: 'POST',
      headers: { apikey: key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ coordinates: [[-0.13, 51.52], [-0.12, 51.52]] }),
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as any;
    expect(body.code).toBe('ROUTING_UNAVAILABLE');
    expect(body.details).toMatch(/london/);
    expect(body.search_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 500 Internal server error without internals when storage fails', async () => {
    const { key } = await createApiKey({ name: 'fault', plan: 'free' });
    const dynamo = new DynamoDBClient({ endpoint: platform.urls.dynamodb, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
    await dynamo.send(new DeleteTableCommand({ TableName: localTableName(tables.rateLimits) }));
    dynamo.destroy();

    const response = await fetch(`${platform.urls.base}/directions/v2/`, {
      method: 'POST',
      headers: { apikey: key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ coordinates: [[-0.13, 51.52], [-0.12, 51.52]] }),
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error' });
    expect(text).not.toMatch(/rate-limits|ResourceNotFound|at \//);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
