import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, inject } from 'vitest';
import { Contract } from './contract.ts';

/**
 * Every answer the platform tests receive from either API, held to the API's own OpenAPI document
 * (`/openapi.json`, fetched once per test worker): this setup file wraps `fetch`, the one way the
 * tests, their helpers and oauth4webapi reach the platform, so an answer that drifts from the
 * description fails the test that received it. Answers to deliberately malformed requests are
 * held to the documented error responses the same way.
 */

const platform = inject('platform');
const unwrappedFetch = globalThis.fetch;
const drifts: string[] = [];
let contract: Promise<Contract> | undefined;

async function loadContract(): Promise<Contract> {
  const documents = await Promise.all(
    [platform.base_url, platform.app_base_url].map(async (baseUrl) => {
      const response = await unwrappedFetch(`${baseUrl}/openapi.json`);
      if (response.status !== 200) throw new Error(`${baseUrl}/openapi.json answered ${response.status}`);
      return { baseUrl, document: (await response.json()) as Record<string, unknown> };
    }),
  );
  return new Contract(documents);
}

function methodOf(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1], response: Response): string {
  // A followed redirect ends with a GET (RFC 9110 15.4: 302 and 303 after a POST).
  if (response.redirected) return 'GET';
  return (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
}

globalThis.fetch = async (input, init) => {
  const response = await unwrappedFetch(input, init);
  const url = response.url || String(input instanceof Request ? input.url : input);
  if (url.startsWith(platform.base_url) || url.startsWith(platform.app_base_url)) {
    contract ??= loadContract();
    const checked = await contract;
    const method = methodOf(input, init, response);
    const problems = checked.problems({ method, url, status: response.status, headers: response.headers, body: await response.clone().text() });
    // `SPOKE_CONTRACT_COVERAGE=<file>` lists the operations and statuses the tests exercised.
    const coverage = process.env.SPOKE_CONTRACT_COVERAGE;
    if (coverage) appendFileSync(coverage, `${checked.operationOf({ method, url }) ?? `(no operation) ${method} ${new URL(url).pathname}`} ${response.status}\n`);
    if (problems.length) drifts.push(`${method} ${new URL(url).pathname} answered ${response.status}: ${problems.join('; ')}`);
  }
  return response;
};

function failOnDrift(): void {
  const found = drifts.splice(0);
  if (found.length) throw new Error(`Answers that drift from the OpenAPI documents:\n${found.join('\n')}`);
}

afterEach(failOnDrift);
afterAll(failOnDrift);
