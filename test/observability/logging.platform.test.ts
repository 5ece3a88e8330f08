import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalProcess, type RunningLocalProcess } from '../support/local-process.ts';
import { authorizeQuery, ConsentSession, pkce } from '../oauth/oauth-support.ts';
import { call, newKey, platform } from '../support/running-platform.ts';

/** The platform's structured log lines (the start-up banner prints the demo keys on purpose, as text). */
async function logLines(logFile: string): Promise<Record<string, unknown>[]> {
  return (await readFile(logFile, 'utf8'))
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logs', () => {
  it('record requests without keys, tokens or request contents', async () => {
    const key = await newKey();
    const secretish = 'Bearer not-a-real-token-but-secret-looking-0123456789';
    const personal = { coordinates: [[-0.123456789, 51.987654321], [-0.1111, 51.2222]], note: 'rider@example.com' };
    await call('/directions/v2/', { key, body: personal });
    await call('/directions/v2/', { headers: { Authorization: secretish }, body: personal });
    await call('/directions/v2/', { headers: { apikey: `${key}x` }, body: personal });
    await call('/directions/v2/', { key, rawBody: '{"broken": "rider@example.com"', method: 'POST' });
    // Log lines are written asynchronously by the platform process.
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The structured log lines; the start-up banner prints the demo keys on purpose.
    const log = (await readFile(platform.logFile, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .join('\n');
    expect(log).toMatch(/"message":"request"/);
    expect(log).toMatch(/"message":"credential refused"/);
    const secret = key.split('_').slice(2).join('_');
    for (const forbidden of [key, secret, 'not-a-real-token', 'rider@example.com', '51.987654321', platform.demo.api_key, platform.demo.partner_api_key, platform.demo.playground_api_key]) {
      expect(log, `log contains ${forbidden}`).not.toContain(forbidden);
    }
  });
});

/**
 * Many requests at once in the one platform process, as Lambda's concurrent runtime runs them:
 * every line a request causes, wherever in domain code it is written, carries that request's id
 * (`x-amzn-RequestId`) and no other's. A platform of its own, so that no graph is loaded yet and
 * each city's first request writes its "graph loaded" line.
 */
describe('log lines of requests served at the same time', () => {
  let running: RunningLocalProcess;
  beforeAll(async () => {
    running = await startLocalProcess();
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('each carry their own request id: request lines, graph loads, the consent screen, authorizer refusals', async () => {
    const { info } = running;
    const requestId = (headers: Headers) => headers.get('x-amzn-requestid')!;
    const started = new Date().toISOString();

    const cityRoutes = {
      london: [[-0.1337, 51.5246], [-0.1246, 51.5219]],
      'new-york': [[-74.006, 40.7128], [-73.9903, 40.6928]],
      'los-angeles': [[-118.4452, 34.0689], [-118.4409, 34.0632]],
      'sf-bay': [[-122.42, 37.77], [-122.41, 37.78]],
    };
    // One directions request per city: each loads its city's graph.
    const directions = Object.entries(cityRoutes).map(async ([city, coordinates]) => {
      const response = await fetch(`${info.base_url}/directions/v2/`, {
        method: 'POST',
        headers: { apikey: info.demo.partner_api_key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ coordinates }),
      });
      expect(response.status, city).toBe(200);
      return { city, id: requestId(response.headers) };
    });
    // Keys the authorizer refuses.
    const refusals = Array.from({ length: 6 }, async (_, index) => {
      const response = await fetch(`${info.base_url}/directions/v2/`, {
        method: 'POST',
        headers: { apikey: `spk_unknown${index}_notasecret`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ coordinates: cityRoutes.london }),
      });
      expect(response.status).toBe(401);
      return requestId(response.headers);
    });
    // Consent screens asking for a sign-in code for the demo rider (three codes a minute per address).
    const app = { clientId: info.demo.oauth_client_id, redirectUri: info.demo.oauth_redirect_uri, type: 'public' as const };
    const consents = Array.from({ length: 3 }, async () => {
      const session = await new ConsentSession(info).start(authorizeQuery(app, pkce().challenge));
      const sent = await session.post({ action: 'send-code', email: info.demo.rider_email });
      expect(sent.status).toBe(303);
      const reference = /reference ([A-Z0-9]+)\)/.exec((await session.page()).html)![1]!;
      return { reference, id: requestId(sent.headers) };
    });
    const [routed, refused, codes] = await Promise.all([Promise.all(directions), Promise.all(refusals), Promise.all(consents)]);
    await sleep(300);

    const lines = (await logLines(running.logFile)).filter((line) => String(line.timestamp) >= started);
    const withMessage = (message: string) => lines.filter((line) => line.message === message);

    for (const { city, id } of routed) {
      expect(withMessage('graph loaded').filter((line) => line.city === city).map((line) => line.correlation_id), city).toEqual([id]);
      expect(withMessage('request').filter((line) => line.correlation_id === id)).toEqual([
        // Written by the city's routing function the dispatch invoked, under the gateway's request id.
        expect.objectContaining({ route: 'directions', method: 'POST', status: 200, function_name: `router-${city}` }),
      ]);
    }
    expect(withMessage('credential refused').map((line) => line.correlation_id).sort()).toEqual([...refused].sort());
    for (const { reference, id } of codes) {
      expect(withMessage('local mail: sign-in code').filter((line) => line.reference === reference).map((line) => line.correlation_id)).toEqual([id]);
      expect(withMessage('request').filter((line) => line.correlation_id === id)).toEqual([
        expect.objectContaining({ route: 'oauth-consent', method: 'POST', status: 303 }),
      ]);
    }

    // Every line of the burst carries a request id, and all lines of one invocation the same one.
    expect(lines.length).toBeGreaterThanOrEqual(routed.length * 2 + refused.length + codes.length * 5);
    const invocations = new Map<unknown, unknown>();
    for (const line of lines) {
      expect(line.correlation_id, JSON.stringify(line)).toMatch(/^[0-9a-f-]{36}$/);
      expect(line.function_request_id, JSON.stringify(line)).toMatch(/^[0-9a-f-]{36}$/);
      if (invocations.has(line.function_request_id)) expect(line.correlation_id).toBe(invocations.get(line.function_request_id));
      invocations.set(line.function_request_id, line.correlation_id);
    }
    expect(JSON.stringify(lines)).not.toContain(info.demo.rider_email);
  });
});
