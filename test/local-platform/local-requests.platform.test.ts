import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { platform } from '../support/running-platform.ts';

/**
 * Every server of the running local platform refuses a request addressed to another name (what
 * a page gets through DNS rebinding), and the storage servers refuse pages of other origins,
 * while the platform's own requests go on being answered.
 */

/** One GET with the headers given as they are (fetch would not send another Host). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    outgoing.on('error', reject).end();
  });
}

const servers = () => ({
  'base API': `${platform.base_url}/openapi.json`,
  'app API': `${platform.app_base_url}/openapi.json`,
  playground: `${platform.playground_url}/config.json`,
  'identity provider': `${platform.identity_provider.url}/.well-known/openid-configuration`,
  DynamoDB: `${platform.services.dynamodb}/`,
  S3: `${platform.services.s3}/`,
  SQS: `${platform.services.sqs}/`,
});

describe('the local servers', () => {
  it.each(Object.keys(servers()))('%s: refuses a rebound name, answers its own address', async (name) => {
    const url = servers()[name as keyof ReturnType<typeof servers>];
    const rebound = await get(url, { host: `rebind.evil.example:${new URL(url).port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/localhost or an IP address/);
    expect(rebound.body).not.toMatch(/api_key|password|spk_/);
    expect((await get(url, {})).status).not.toBe(403);
  });

  it.each(['DynamoDB', 'S3', 'SQS'] as const)('%s: refuses a web page of another origin, which its CORS would let read', async (name) => {
    const url = servers()[name];
    expect((await get(url, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(url, { origin: new URL(platform.playground_url!).origin })).status).not.toBe(403);
  });
});
