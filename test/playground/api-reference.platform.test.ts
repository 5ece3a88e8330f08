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

// The callbacks of page.evaluate run in the page.
declare const document: any;

async function openReference(api: 'base' | 'app', viewport?: { width: number; height: number }) {
  const page = await browser.newPage(viewport ? { viewport } : {});
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
    // The page reports a violation through an exposed function, which may answer after the text shows.
    await expect.poll(() => violations, { timeout: 10_000 }).toEqual(['script-src eval']);
    expect(failures).toEqual([]);
    await page.close();
  });

  // A desktop window, where the title shares its column with Redoc's copy button, and a phone's.
  it.each([
    ['base', 1280, platform.base_url, 'Spoke API: routing, reports, rider login'],
    ['app', 1280, platform.app_base_url, 'Spoke app API: riders, rides, bike share, events'],
    ['base', 360, platform.base_url, 'Spoke API: routing, reports, rider login'],
    ['app', 360, platform.app_base_url, 'Spoke app API: riders, rides, bike share, events'],
  ] as const)('titles the %s API in words, its version on one line, %i px wide', async (api, width, baseUrl, title) => {
    const { version } = ((await (await fetch(`${baseUrl}/openapi.json`)).json()) as { info: { version: string } }).info;
    const { page } = await openReference(api, { width, height: 800 });
    const heading = page.locator('h1').first();
    await heading.waitFor({ timeout: 30_000 });
    expect(await heading.textContent()).toBe(`${title} (${version})`);
    // The lines the version's characters are drawn on, and whether the heading overflows its box.
    const layout = await heading.evaluate((h1: any, versionText: string) => {
      const text = h1.firstChild;
      const start = text.data.lastIndexOf(versionText);
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + versionText.length);
      const tops = new Set([...range.getClientRects()].map((rect: any) => Math.round(rect.top)));
      return { versionLines: tops.size, overflows: h1.scrollWidth > h1.clientWidth + 1 };
    }, `(${version})`);
    expect(layout).toEqual({ versionLines: 1, overflows: false });
    await page.close();
  });

  it('is linked from the playground', async () => {
    const page = await (await fetch(platform.playground_url)).text();
    expect(page).toContain('href="/reference/?api=base"');
    expect(page).toContain('href="/reference/?api=app"');
  });
});
