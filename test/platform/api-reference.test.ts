import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { platform } from './support.ts';

/**
 * The playground's API reference: Redoc, served from node_modules, renders each API's own
 * `/openapi.json` in a real browser, and nothing is fetched from anywhere but this machine.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openReference(api: 'base' | 'app') {
  const page = await browser.newPage();
  const requests: string[] = [];
  const failures: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => failures.push(error.message));
  await page.goto(`${platform.playground_url}/reference/?api=${api}`);
  return { page, requests, failures };
}

describe('the API reference in the playground', () => {
  it.each([
    ['base', platform.base_url, ['Cycling and walking directions', 'Report a road or infrastructure problem', 'Exchange a code or a refresh token for tokens']],
    ['app', platform.app_base_url, ["The signed-in rider's profile", 'Bike-share stations and dockless bikes near a point', 'Cycling events and leisure routes near a point']],
  ] as const)('renders the %s API from its /openapi.json, with nothing from the internet', async (api, baseUrl, summaries) => {
    const { page, requests, failures } = await openReference(api);
    for (const summary of summaries) await page.getByText(summary, { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(requests).toContain(`${baseUrl}/openapi.json`);
    expect(requests).toContain(`${platform.playground_url}/vendor/redoc/redoc.standalone.js`);
    const local = [platform.playground_url, platform.base_url, platform.app_base_url];
    expect(requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && !local.some((origin) => url.startsWith(`${origin}/`)))).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('is linked from the playground', async () => {
    const page = await (await fetch(platform.playground_url)).text();
    expect(page).toContain('href="/reference/?api=base"');
    expect(page).toContain('href="/reference/?api=app"');
  });
});
