/**
 * Screenshots of the map playground: `npx tsx test/screenshots/playground.ts`. Starts the local
 * platform as `npm start` does (free ports, a fresh state folder, the graphs of `.local-data`),
 * opens the playground in Debian's headless Chromium at 1280x800, plans each city's sample route
 * at a fixed daytime departure, and writes `docs/playground-<city>.png`, plus London at night
 * (`docs/playground-london-night.png`). The PNGs are palette-quantised to stay small.
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../core/paths.ts';
import { createApiKey } from '../../functions/auth/api-keys.ts';
import { ensureGraphs } from '../../graph-builder/index.ts';
import { functionEnvironment } from '../../lib/local/provision.ts';
import { launchChromium } from '../support/browser.ts';
import { startLocalProcess } from '../support/local-process.ts';

/** Mid-morning in every city, a Monday in June: the day map (the night shot sets night routing). */
const DEPARTURE = '2026-06-15T10:30';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function shoot(page: Page, url: string, city: string, file: string, night: boolean): Promise<void> {
  await page.goto(`${url}/#${city}`);
  await page.locator(`#map[data-ready="true"][data-city="${city}"]`).waitFor();
  await page.getByLabel('Departure (city time)').fill(DEPARTURE);
  await page.getByLabel('Night routing').selectOption(night ? 'night' : 'auto');
  await page.getByRole('button', { name: 'Sample route' }).click();
  await page.locator('.route-card').first().waitFor({ timeout: 30_000 });
  // The map has flown to the routes; wait for its tiles to be drawn.
  await page.waitForFunction(() => document.querySelectorAll('.leaflet-tile-pane .leaflet-tile:not(.leaflet-tile-loaded)').length === 0);
  await page.waitForTimeout(500);
  const png = await page.screenshot();
  const small = await sharp(png).png({ palette: true, quality: 90, colours: 192, compressionLevel: 9, effort: 10 }).toBuffer();
  await writeFile(file, small);
  say(`${file}: ${Math.round(small.length / 1024)} KiB`);
}

async function main(): Promise<void> {
  // The folder npm start builds its graphs in, so nothing is rebuilt for the screenshots.
  process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');
  await ensureGraphs({ outDir: process.env.SPOKE_GRAPH_DIR, log: say });
  const running = await startLocalProcess();
  const browser = await launchChromium();
  try {
    // A key of its own, so the shots never wait for the demo key's free plan.
    Object.assign(process.env, functionEnvironment(running.info.services));
    const { key } = await createApiKey({ name: 'playground screenshots', plan: 'enterprise', limits: { perMinute: 600, perHour: 6_000, perDay: 60_000 } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-GB' });
    await context.addInitScript((value) => localStorage.setItem('spoke-playground-api-key', value), key);
    const page = await context.newPage();
    const config = (await (await fetch(`${running.info.playground_url}/config.json`)).json()) as { cities: { id: string }[] };
    for (const { id } of config.cities) await shoot(page, running.info.playground_url, id, join(projectRoot, 'docs', `playground-${id}.png`), false);
    await shoot(page, running.info.playground_url, 'london', join(projectRoot, 'docs', 'playground-london-night.png'), true);
  } finally {
    await browser.close();
    await running.stop();
  }
}

// The page's own globals, for the callbacks that run in the browser.
declare const document: { querySelectorAll(selector: string): { length: number } };
declare const localStorage: { setItem(key: string, value: string): void };

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
