import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type ApiName, type EndpointDefinition } from '../../platform/endpoints.ts';
import { describeRequest, fuzzRequest, unknownPathRequest, type Credentials, type FuzzRequest } from './fuzz-requests.ts';
import { riderAccessToken } from '../oauth/oauth-support.ts';
import { signedInRider, type SignedInRider } from '../riders/rider-support.ts';
import { call, londonPair, newKey, platform } from '../support/running-platform.ts';

/**
 * Property-based fuzzing of every endpoint of the endpoint table against the running local
 * platform: generated methods, paths, query strings, headers and bodies (fuzz-requests.ts) never
 * get a 5xx, every refusal in JSON is the spec's `{error}`, and afterwards the platform process is
 * alive and answers a known-good request. Requests carry valid credentials for their endpoint
 * (an API key, or a signed-in rider's token) so that they reach the handlers and not only the
 * authorizer.
 *
 * The seed is fixed and the number of runs bounded so the suite stays reproducible and quick;
 * `npm run fuzz -- --runs 2000 [--seed N]` runs longer (test/support/fuzz.ts).
 */

const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 22);
/** Virtual seconds between requests (the test clock header): spreads a rider's requests over the rate limit's minutes. */
const SECONDS_APART = 4;

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
let sent = 0;

interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The endpoint's function answered (its answers carry `X-Request-Id`; the gateway's and the authorizer's do not). */
  fromFunction: boolean;
}

/**
 * Sends one fuzzed request. A kept-alive socket the gateway closed for idleness (its 5 s keep-alive
 * timeout) while the request was being written fails with ECONNRESET before any answer: the request
 * never reached the gateway, so it is sent once more on a fresh socket, as Node's docs advise
 * (`request.reusedSocket`). Any other failure, and a reset on a fresh socket, fails the test.
 */
async function send(api: ApiName, fuzzed: FuzzRequest): Promise<Answer> {
  try {
    return await sendOnce(api, fuzzed);
  } catch (error) {
    if (!(error instanceof StaleSocketError)) throw error;
    return sendOnce(api, fuzzed);
  }
}

class StaleSocketError extends Error {}

function sendOnce(api: ApiName, fuzzed: FuzzRequest): Promise<Answer> {
  const base = new URL(api === 'base' ? platform.base_url : platform.app_base_url);
  // Raw headers, as generated (repeats and all): Node then adds nothing, not even Host.
  const headers: string[] = ['Host', base.host, 'X-Spoke-Test-Clock-Offset', String(sent++ * SECONDS_APART)];
  for (const [name, value] of fuzzed.headers) headers.push(name, value);
  if (fuzzed.body) headers.push('Content-Length', String(fuzzed.body.length));
  return new Promise((resolve, reject) => {
    const outgoing = request({ agent, host: base.hostname, port: base.port, method: fuzzed.method, path: fuzzed.target, headers, timeout: 60_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
          fromFunction: response.headers['x-request-id'] !== undefined,
        }),
      );
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 60 s')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const message = `${describeRequest(fuzzed)}: ${error.message}`;
      reject(outgoing.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocketError(message) : new Error(message));
    });
    outgoing.end(fuzzed.body ?? undefined);
  });
}

/** The property every answer keeps: no 5xx, and a JSON refusal is `{error: string, ...}`. */
function expectWellRefused(fuzzed: FuzzRequest, answer: Answer): void {
  const described = `${describeRequest(fuzzed)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, described).toBeGreaterThanOrEqual(200);
  expect(answer.status, described).toBeLessThan(500);
  if (answer.status >= 400 && fuzzed.method !== 'HEAD' && answer.contentType.startsWith('application/json')) {
    const body = JSON.parse(answer.text) as { error?: unknown };
    expect(typeof body.error, described).toBe('string');
  }
}

async function expectPlatformAnswering(key: string): Promise<void> {
  expect(() => process.kill(platform.pid, 0), 'the platform process is alive').not.toThrow();
  expect((await call('/directions/v2/', { key, body: { coordinates: londonPair } })).status).toBe(200);
  expect((await call('/events/nearby/?latitude=51.5246&longitude=-0.1337', { api: 'app' })).status).toBe(200);
}

const runOptions = (offset: number): fc.Parameters<[FuzzRequest]> => ({ seed: SEED + offset, numRuns: RUNS_PER_ENDPOINT });
const timeout = Math.max(60_000, RUNS_PER_ENDPOINT * 2_000);

describe(`fuzzing every endpoint (${RUNS_PER_ENDPOINT} requests each, seed ${SEED})`, () => {
  let apiKey: string;
  let rider: SignedInRider;

  beforeAll(async () => {
    apiKey = await newKey({ name: 'fuzz', plan: 'enterprise', limits: { perMinute: 1_000_000, perHour: 10_000_000, perDay: 100_000_000 } });
    rider = await signedInRider();
  });
  afterAll(() => agent.destroy());

  /** A fresh rider token for each endpoint: a long run outlasts the identity provider's one-hour tokens. */
  const credentialsNow = async (): Promise<Credentials> => ({
    apiKey: [['apikey', apiKey]],
    rider: [['Authorization', `Bearer ${await riderAccessToken(rider)}`]],
  });

  it.each(endpoints.map((definition, index) => [definition.id, definition, index] as const))(
    '%s never answers 5xx',
    { timeout },
    async (_, definition: EndpointDefinition, index) => {
      let answered = 0;
      let byFunction = 0;
      await fc.assert(
        fc.asyncProperty(fuzzRequest(definition, await credentialsNow()), async (fuzzed) => {
          const answer = await send(definition.api, fuzzed);
          answered++;
          if (answer.fromFunction) byFunction++;
          expectWellRefused(fuzzed, answer);
        }),
        runOptions(index),
      );
      // Most requests get past the gateway and the authorizer: the fuzzing reaches the handler.
      expect(byFunction / answered).toBeGreaterThan(0.5);
    },
  );

  it.each(['base', 'app'] as const)('unknown paths on %s never answer 5xx', { timeout }, async (api) => {
    await fc.assert(
      fc.asyncProperty(unknownPathRequest, async (fuzzed) => expectWellRefused(fuzzed, await send(api, fuzzed))),
      runOptions(endpoints.length + (api === 'base' ? 0 : 1)),
    );
  });

  it('leaves the platform running and answering', async () => {
    await expectPlatformAnswering(apiKey);
  });
});
