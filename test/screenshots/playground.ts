/**
 * Screenshots of the map playground: `npx tsx test/screenshots/playground.ts`. Starts the local
 * platform as `npm start` does (free ports, a fresh state folder, the graphs of `.local-data`),
 * opens the playground in Debian's headless Chromium at 1280x800, plans each city's sample route
 * at a fixed daytime departure, and writes `docs/playground-<city>.png`, plus London at night
 * (`docs/playground-london-night.png`) and London in Spanish with the bike-share options compared
 * (`docs/playground-london-es.png`); San Francisco's with the panel scrolled to the routes' elevation
 * profiles. The PNGs are palette-quantised to stay small.
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { graphOutputDir, sharedDataPath } from '../../lib/local/paths.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { ensureGraphs } from '../../graph-builder/index.ts';
import { launchChromium } from '../support/browser.ts';
import { startLocalProcess } from '../support/local-process.ts';

/** Mid-morning in every city, a Monday in June: the day map (the night shot sets night routing). */
const DEPARTURE = '2026-06-15T10:30';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function shoot(page: Page, url: string, city: string, file: string, options: { night?: boolean; spanish?: boolean; profiles?: boolean } = {}): Promise<void> {
  await page.goto(`${url}/#${city}`);
  await page.locator(`#map[data-ready="true"][data-city="${city}"]`).waitFor();
  await page.locator('#language').selectOption(options.spanish ? 'es' : 'en');
  await page.locator('#departure').fill(DEPARTURE);
  await page.locator('#night').selectOption(options.night ? 'night' : 'auto');
  await page.locator('#sample').click();
  await page.locator('.route-card').first().waitFor({ timeout: 30_000 });
  await page.locator('#results:not([aria-busy])').waitFor();
  if (options.spanish) {
    // The bike-share options, the first with a station, at the top of the panel.
    await page.locator('#compare').click();
    await page.locator('.option-card').first().waitFor({ timeout: 30_000 });
    const docked = page.locator('.option-card', { has: page.locator('.leg.walking') }).first();
    await docked.click();
    await page.locator('.multimodal').evaluate((section: { scrollIntoView(): void }) => section.scrollIntoView());
  }
  if (options.profiles) await page.locator('.route-card .elevation').first().evaluate((profile: { scrollIntoView(options: object): void }) => profile.scrollIntoView({ block: 'center' }));
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
  await ensureGraphs({ dataPath: sharedDataPath(), outDir: graphOutputDir(), log: say });
  const running = await startLocalProcess();
  const browser = await launchChromium();
  try {
    // The playground's own key, as a person opening it has: its plan has room for these plans.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-GB' });
    const page = await context.newPage();
    const config = (await (await fetch(`${running.info.playground_url}/config.json`)).json()) as { cities: { id: string }[] };
    for (const { id } of config.cities) await shoot(page, running.info.playground_url, id, join(projectRoot, 'docs', `playground-${id}.png`), { profiles: id === 'sf-bay' });
    await shoot(page, running.info.playground_url, 'london', join(projectRoot, 'docs', 'playground-london-night.png'), { night: true });
    await shoot(page, running.info.playground_url, 'london', join(projectRoot, 'docs', 'playground-london-es.png'), { spanish: true });
  } finally {
    await browser.close();
    await running.stop();
  }
}

// The page's own globals, for the callbacks that run in the browser.
declare const document: { querySelectorAll(selector: string): { length: number } };

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
