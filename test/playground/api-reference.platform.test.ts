import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { platform } from '../support/running-platform.ts';

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
  const loaded: string[] = [];
  const blocked: string[] = [];
  const failures: string[] = [];
  page.on('requestfinished', (request) => loaded.push(request.url()));
  // What the page's content security policy stops never leaves the browser (Redoc's CDN logo).
  page.on('requestfailed', (request) => (request.failure()?.errorText === 'csp' ? blocked : failures).push(request.url()));
  page.on('pageerror', (error) => failures.push(error.message));
  await page.goto(`${platform.playground_url}/reference/?api=${api}`);
  return { page, loaded, blocked, failures };
}

describe('the API reference in the playground', () => {
  it.each([
    ['base', platform.base_url, 'Routing', 'Cycling and walking directions', 'coordinates'],
    ['app', platform.app_base_url, 'Bike share', 'Bike-share stations and dockless bikes near a point', 'latitude'],
  ] as const)('renders the %s API from its /openapi.json, with nothing from the internet', async (api, baseUrl, tag, summary, field) => {
    const { page, loaded, blocked, failures } = await openReference(api);
    await page.getByRole('link', { name: tag, exact: true }).or(page.getByText(tag, { exact: true })).first().click({ timeout: 30_000 });
    await page.getByText(summary, { exact: true }).first().click();
    await page.getByText(field, { exact: true }).first().waitFor();
    expect(loaded).toContain(`${baseUrl}/openapi.json`);
    expect(loaded).toContain(`${platform.playground_url}/vendor/redoc/redoc.standalone.js`);
    const local = [platform.playground_url, platform.base_url, platform.app_base_url];
    expect(loaded.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && !local.some((origin) => url.startsWith(`${origin}/`)))).toEqual([]);
    expect(blocked.every((url) => !local.some((origin) => url.startsWith(`${origin}/`)))).toBe(true);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('is linked from the playground', async () => {
    const page = await (await fetch(platform.playground_url)).text();
    expect(page).toContain('href="/reference/?api=base"');
    expect(page).toContain('href="/reference/?api=app"');
  });
});
