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
  // What the page's content security policy stops never leaves the browser.
  page.on('requestfailed', (request) => (request.failure()?.errorText === 'csp' ? blocked : failures).push(request.url()));
  page.on('pageerror', (error) => failures.push(error.message));
  // Errors the page logs, other than the policy's own reports of what it refused (counted above).
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Content Security Policy|'script-src' was not explicitly set/.test(message.text())) failures.push(`console: ${message.text()}`);
  });
  // What the page's content security policy refuses, as the page hears it.
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    const page = globalThis as any;
    page.document.addEventListener('securitypolicyviolation', (event: any) => void page.reportViolation(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto(`${platform.playground_url}/reference/?api=${api}`);
  return { page, loaded, blocked, failures, violations };
}

describe('the API reference in the playground', () => {
  it.each([
    ['base', platform.base_url, 'Routing', 'Cycling and walking directions', 'coordinates'],
    ['app', platform.app_base_url, 'Bike share', 'Bike-share stations and dockless bikes near a point', 'latitude'],
  ] as const)('renders the %s API from its /openapi.json, with nothing from the internet', async (api, baseUrl, tag, summary, field) => {
    const { page, loaded, blocked, failures, violations } = await openReference(api);
    await page.getByRole('link', { name: tag, exact: true }).or(page.getByText(tag, { exact: true })).first().click({ timeout: 30_000 });
    await page.getByText(summary, { exact: true }).first().click();
    await page.getByText(field, { exact: true }).first().waitFor();
    expect(loaded).toContain(`${baseUrl}/openapi.json`);
    expect(loaded).toContain(`${platform.playground_url}/vendor/redoc/redoc.standalone.js`);
    const local = [platform.playground_url, platform.base_url, platform.app_base_url];
    expect(loaded.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && !local.some((origin) => url.startsWith(`${origin}/`)))).toEqual([]);
    // Nothing is blocked (Redoc's attribution logo comes from the playground, not Redocly's CDN),
    // and the page logs no error. The policy refuses one thing only: Redoc's probe for `eval`,
    // which it answers by building its search index without a worker.
    expect(blocked).toEqual([]);
    expect(violations).toEqual(['script-src eval']);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('is linked from the playground', async () => {
    const page = await (await fetch(platform.playground_url)).text();
    expect(page).toContain('href="/reference/?api=base"');
    expect(page).toContain('href="/reference/?api=app"');
  });
});
