import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import { UNKNOWN_ENDPOINT } from '../../functions/http/errors.ts';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import { PLAYGROUND_KEY_LIMITS } from '../../lib/local/seed.ts';
import { MESSAGES } from '../../lib/local/playground/web/messages.js';
import { launchChromium, screenshotDir } from '../support/browser.ts';
import { gpxPoints, gpxSchemaProblems } from '../support/gpx-schema.ts';
import { awayFromWindowEdge, call, newKey, platform, runAdmin, useLocalAws } from '../support/running-platform.ts';

/**
 * The map playground in Debian's headless Chromium, driven as a person uses it: it loads the
 * safety map drawn from the platform's own data with nothing from the internet, plans routes in
 * every city with two clicks, switches language and night mode, signs the demo rider in for bikes,
 * and says plainly what fails. Everything it shows is checked against what the public API answered
 * the page. The page also serves deployments where an endpoint is missing or down (404, 503):
 * those tests make the browser answer for that one endpoint and check the page's notice.
 */

// The callbacks of page.evaluate run in the page.
declare const window: any;
declare const document: any;
declare const localStorage: any;

interface CityConfig {
  id: string;
  name: string;
  lighting_data: boolean;
  sample_route: [[number, number], [number, number]];
}

const config = (await (await fetch(`${platform.playground_url}/config.json`)).json()) as {
  cities: CityConfig[];
  api_key: string;
  api_key_plan: { plan: string; per_minute: number; per_hour: number; per_day: number };
};
const cityById = (id: string) => config.cities.find((city) => city.id === id)!;
const london = cityById('london');
/** A key of its own with room to spare, so the page's calls never meet another test's limits. */
const key = await newKey({ name: 'playground browser tests', plan: 'enterprise', limits: { perMinute: 1_000, perHour: 10_000, perDay: 100_000 } });

/** Every trip leaves at this time, city time, so no test leans on the hour it runs at. */
const DEPARTURE = '2026-06-15T10:30';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  /** Every URL the page asked for. */
  requests: string[];
  /** The API's answers to the page, in order, with the request body. */
  answers: { method: string; path: string; status: number; request: any; body: any }[];
}

/** Opens the playground on a city at the fixed departure, with the test's key set under Settings as a person would. */
async function open(city: string, options: { apiKey?: string } = {}): Promise<Opened> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const apiKey = options.apiKey ?? key;
  await context.addInitScript((value) => localStorage.setItem('spoke-playground-api-key', value), apiKey);
  const page = await context.newPage();
  const requests: string[] = [];
  const answers: Opened['answers'] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', async (response: Response) => {
    const url = new URL(response.url());
    if (url.origin !== platform.base_url && url.origin !== platform.app_base_url) return;
    if (response.request().method() === 'OPTIONS') return;
    const text = await response.text().catch(() => '');
    answers.push({
      method: response.request().method(),
      path: url.pathname,
      status: response.status(),
      request: response.request().postData() ? JSON.parse(response.request().postData()!) : null,
      // A GPX answer (the download) is kept as its text.
      body: text && response.headers()['content-type']?.startsWith('application/json') ? JSON.parse(text) : text || null,
    });
  });
  await page.goto(`${platform.playground_url}/#${city}`);
  await page.locator(`#map[data-ready="true"][data-city="${city}"]`).waitFor();
  await page.getByLabel('Departure (city time)').fill(DEPARTURE);
  return { page, requests, answers };
}

/**
 * The platform as one without `path` (the gateway's 404 for an unknown endpoint) or with it down
 * (503), for this page only.
 */
async function withoutEndpoint(page: Page, path: string, status: 404 | 503): Promise<void> {
  const body = status === 404 ? { error: UNKNOWN_ENDPOINT } : { error: 'Service unavailable' };
  await page.route((url) => url.pathname === path, (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }));
}

/** Brings points into view, as a person moves the map to where they want to go. */
async function showPoints(page: Page, points: readonly (readonly [number, number])[]): Promise<void> {
  await page.locator('#map:not([data-moving])').waitFor();
  await page.evaluate((latLngs) => (window as any).playground.map.fitBounds(latLngs, { padding: [80, 80], animate: false }), points.map(([lon, lat]) => [lat, lon]));
}

/** Every kind of mark drawn on the map (each carries `mark-<kind>`) has its entry in the legend. */
async function expectEveryMarkInTheLegend(page: Page): Promise<string[]> {
  const drawn: string[] = await page.evaluate(() => [
    ...new Set(
      [...document.querySelectorAll('.leaflet-map-pane [class*="mark-"]')].flatMap((element: any) =>
        [...element.classList].filter((name: string) => name.startsWith('mark-')).map((name: string) => name.slice('mark-'.length)),
      ),
    ),
  ]);
  for (const kind of drawn) expect(await page.locator(`.legend [data-mark="${kind}"]`).count(), kind).toBe(1);
  return drawn;
}

/** Moves the mouse over a named busy street of the city shown, close up. */
async function hoverBusyStreet(page: Page): Promise<void> {
  const network = await page.evaluate(() => {
    const playground = (window as any).playground;
    const segment = playground.network.kind.findIndex((kind: number, index: number) => playground.network.kinds[kind] === 'busy' && playground.network.name[index] > 0);
    const first = playground.network.first[segment];
    const world = { x: (playground.network.x[first] + playground.network.x[first + 1]) / 2, y: (playground.network.y[first] + playground.network.y[first + 1]) / 2 };
    const latlng = playground.map.unproject([world.x, world.y], 0);
    return { name: playground.network.names[playground.network.name[segment]], at: [latlng.lng, latlng.lat] as [number, number] };
  });
  await page.evaluate(([lat, lon]) => (window as any).playground.map.setView([lat, lon], 17, { animate: false }), [network.at[1], network.at[0]]);
  const point = await page.evaluate(([lat, lon]) => (window as any).playground.map.latLngToContainerPoint([lat, lon]), [network.at[1], network.at[0]]);
  const box = (await page.locator('#map').boundingBox())!;
  await page.mouse.move(box.x + point.x, box.y + point.y);
}

/** A real click on the map where a [lon, lat] is shown. */
async function clickAt(page: Page, [lon, lat]: [number, number]): Promise<void> {
  // An animated fit (a new city, a new route) moves where the point is drawn until it settles.
  await page.locator('#map:not([data-moving])').waitFor();
  const point = await page.evaluate(([latitude, longitude]) => (window as any).playground.map.latLngToContainerPoint([latitude, longitude]), [lat, lon]);
  const box = (await page.locator('#map').boundingBox())!;
  await page.mouse.click(box.x + point.x, box.y + point.y);
}

/** Waits for the page's next answers from `POST /directions/v2/` (two for cycling, one for walking). */
async function directionsAnswers(opened: Opened, count: number, after: number): Promise<Opened['answers']> {
  await expect.poll(() => opened.answers.slice(after).filter((answer) => answer.path === '/directions/v2/').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
  return opened.answers.slice(after).filter((answer) => answer.path === '/directions/v2/').slice(0, count);
}

/** Which card an answer is drawn on: the safer card asks `supersafe: true` or, at another grade, `safety`. */
/**
 * Waits for the page's answer from `POST /explain-supersafe/` to the request `asked` picks among
 * the answers after `after`. Picked by its request, not its place: the sentence of the plan before
 * may still arrive after the new plan's routes.
 */
async function explainAnswer(opened: Opened, after: number, asked: (request: any) => boolean): Promise<Opened['answers'][number]> {
  const answer = () => opened.answers.slice(after).find((seen) => seen.path === '/explain-supersafe/' && asked(seen.request));
  await expect.poll(() => answer()?.status, { timeout: 30_000 }).toBe(200);
  return answer()!;
}

const variantOf = (answer: Opened['answers'][number]) => (answer.request.profile === 'walking' ? 'walking' : answer.request.supersafe === false ? 'direct' : 'supersafe');

/** What the page shows for a distance, as dom.js formats it (a decimal comma in Spanish, a no-break space before the unit). */
function metres(value: number, language: 'en' | 'es' = 'en'): string {
  if (value < 1000) return `${Math.round(value)}\u00a0m`;
  const kilometres = (value / 1000).toFixed(value < 10_000 ? 1 : 0);
  return `${language === 'es' ? kilometres.replace('.', ',') : kilometres}\u00a0km`;
}

/** Checks the route cards and the turn-by-turn list against the API's answers. */
async function expectRoutesShown(page: Page, answers: Opened['answers'], language: 'en' | 'es' = 'en'): Promise<void> {
  // The page draws a plan once every call of it has answered (the explanation can come after the
  // directions), so until then it still shows the plan before.
  await page.locator('#results:not([aria-busy])').waitFor();
  await expect.poll(() => page.locator('.route-card').count()).toBe(answers.length);
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    const route = answer.body.route;
    expect(route).not.toBeNull();
    const card = page.locator(`.route-card[data-variant="${variantOf(answer)}"]`);
    expect(await card.locator('.distance').textContent()).toBe(metres(route.distance, language));
    const breakdown = answer.body.metadata.safety_breakdown;
    if (breakdown) {
      for (const kind of ['quiet', 'cycleway', 'moderate', 'busy', 'shared', 'pushed']) {
        expect(await card.locator(`.bar-row[data-class="${kind}"] .bar-value`).textContent()).toBe(metres(breakdown[kind], language));
      }
    }
  }
  const selectedVariant = await page.locator('.route-card.selected').getAttribute('data-variant');
  const selected = answers.find((answer) => variantOf(answer) === selectedVariant)!;
  const steps = selected.body.route.steps;
  expect(await page.locator('.steps .instruction').allTextContents()).toEqual(steps.map((step: any) => step.maneuver.instruction));
  expect(await page.locator('path.route-line.selected').count()).toBe(1);
}

/** What the page's layout gets wrong: text wrapped or cut where it must not be, controls over each other. */
async function layoutFaults(page: Page): Promise<Record<string, unknown>> {
  // Runs in the page: its DOM is untyped here (the tests are compiled without the DOM library).
  return page.evaluate(() => {
    type Box = { left: number; right: number; top: number; bottom: number };
    const box = (selector: string): Box => document.querySelector(selector).getBoundingClientRect();
    const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const lineCount = (element: unknown): number => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect: Box) => Math.round(rect.top))).size;
    };
    const all = (selector: string): any[] => [...document.querySelectorAll(selector)];
    // The city select is as wide as its longest name needs (its width at max-content), or it cuts it.
    const city = document.querySelector('#city');
    const shown = city.offsetWidth;
    city.style.width = 'max-content';
    const needed = city.offsetWidth;
    city.style.width = '';
    return {
      attributionOverScale: overlap(box('.leaflet-control-attribution'), box('.leaflet-control-scale')),
      clippedBarLabels: all('.bar-label').filter((label) => label.scrollWidth > label.clientWidth || lineCount(label) > 1).map((label) => label.textContent),
      wrappedProfileFigures: all('.profile-figures > span').filter((figure) => lineCount(figure) > 1).map((figure) => figure.textContent),
      overflowingProfileFigures: all('.profile-figures').filter((figures) => figures.scrollWidth > figures.clientWidth + 1).map((figures) => figures.textContent),
      clippedCityNames: shown < needed ? [...city.options].map((option: { text: string }) => option.text) : [],
      // Each event's distance ("a 491 m") on one line: a figure never parted from its unit.
      splitEventDistances: all('.events .meta').filter((meta) => {
        const text = meta.firstChild;
        const figure = /\d[\d.,]*\s(k?m)$/.exec(text?.data ?? '');
        if (!figure) return false;
        const range = document.createRange();
        range.setStart(text, figure.index);
        range.setEnd(text, text.data.length);
        return new Set([...range.getClientRects()].map((rect: Box) => Math.round(rect.top))).size > 1;
      }).map((meta) => meta.textContent),
    };
  });
}

/** What `layoutFaults` finds on a page laid out right. */
const NO_LAYOUT_FAULTS = { attributionOverScale: false, clippedBarLabels: [], wrappedProfileFigures: [], overflowingProfileFigures: [], clippedCityNames: [], splitEventDistances: [] };

/** Waits for the base map's tiles in view to be drawn, so a screenshot shows the streets. */
async function tilesDrawn(page: Page): Promise<void> {
  await page.locator('#map:not([data-moving])').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.leaflet-tile-pane .leaflet-tile:not(.leaflet-tile-loaded)').length === 0);
}

/** Saves a screenshot of the page, or of one element, under `screenshotDir()`, and says where. */
async function saveScreenshot(target: Page | Locator, name: string): Promise<string> {
  const path = join(screenshotDir(), name);
  await rm(path, { force: true });
  await target.screenshot({ path });
  return path;
}

describe('the map playground', () => {
  it('is served by npm start: the page, Leaflet from the project, its own key, and the base map of each city from its graph', async () => {
    const page = await fetch(platform.playground_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<title>Spoke playground</title>');
    const leaflet = await fetch(`${platform.playground_url}/vendor/leaflet/leaflet-src.esm.js`);
    expect(leaflet.status).toBe(200);
    expect(await leaflet.text()).toContain('Leaflet 1.9.4');
    // The playground's own key, on a plan with room for a person exploring.
    expect(config.api_key).toBe(platform.demo.playground_api_key);
    expect(config.api_key).not.toBe(platform.demo.api_key);
    expect(config.api_key_plan).toEqual({ plan: 'enterprise', per_minute: PLAYGROUND_KEY_LIMITS.perMinute, per_hour: PLAYGROUND_KEY_LIMITS.perHour, per_day: PLAYGROUND_KEY_LIMITS.perDay });
    const keyed = await call('/explain-supersafe/', { key: config.api_key, body: { coordinates: london.sample_route } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe(String(PLAYGROUND_KEY_LIMITS.perMinute));
    expect(config.cities.map((city) => city.id).sort()).toEqual(['london', 'los-angeles', 'new-york', 'sf-bay']);
    expect(JSON.stringify(config)).not.toContain(platform.identity_provider.admin_secret);
    expect(JSON.stringify(config)).not.toContain(platform.demo.partner_api_key);

    for (const city of config.cities) {
      const response = await fetch(`${platform.playground_url}/cities/${city.id}/base-map.json`);
      expect(response.status).toBe(200);
      const map = (await response.json()) as any;
      // The graph the router routes on is the one drawn.
      const routed = await call('/directions/v2/', { key, body: { coordinates: city.sample_route } });
      expect(map.graph_version).toBe(routed.body.graph_version);
      expect(map.segments.count).toBeGreaterThan(100);
      const again = await fetch(`${platform.playground_url}/cities/${city.id}/base-map.json`, { headers: { 'If-None-Match': response.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    for (const path of ['/app/../../../package.json', '/vendor/leaflet/../package.json', '/app/server.ts', '/cities/paris/base-map.json', '/local-platform.json']) {
      expect((await fetch(`${platform.playground_url}${path}`)).status, path).toBe(404);
    }
  });

  it('loads the safety map of a city with a legend, and asks nothing of the internet', async () => {
    const { page, requests } = await open('london');
    expect(await page.title()).toBe('Spoke playground');
    expect(await page.locator('#city option').allTextContents()).toEqual(config.cities.map((city) => city.name));
    expect(await page.locator('.legend li code').allTextContents()).toEqual(['quiet', 'cycleway', 'moderate', 'busy', 'shared']);
    expect(await page.locator('#status').textContent()).toContain('street-lighting data');
    // The base map's tiles are drawn: their canvases hold coloured pixels.
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll('.leaflet-tile-pane canvas')].reduce((painted: number, canvas: any) => {
            const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
            let count = 0;
            for (let index = 3; index < data.length; index += 4) if (data[index]! > 0) count++;
            return painted + count;
          }, 0),
        ),
      )
      .toBeGreaterThan(10_000);
    // Hovering a street names it and says how it is rated.
    await hoverBusyStreet(page);
    await expect.poll(() => page.locator('.hover-label').textContent()).toContain('busy road');

    const allowed = [platform.playground_url, platform.base_url, platform.app_base_url];
    const elsewhere = requests.filter((url) => !url.startsWith('data:') && !allowed.some((origin) => url.startsWith(`${origin}/`)));
    expect(elsewhere).toEqual([]);
    expect(requests).toContain(`${platform.playground_url}/vendor/leaflet/leaflet-src.esm.js`);
  });

  it('plans a route in every city with two clicks: supersafe and direct side by side, as the API answered them', async () => {
    const opened = await open('london');
    const { page } = opened;
    for (const city of config.cities) {
      if (city.id !== 'london') {
        await page.getByLabel('City', { exact: true }).selectOption(city.id);
        await page.locator(`#map[data-ready="true"][data-city="${city.id}"]`).waitFor();
      }
      const before = opened.answers.length;
      await showPoints(page, city.sample_route);
      await clickAt(page, city.sample_route[0]);
      await clickAt(page, city.sample_route[1]);
      const answers = await directionsAnswers(opened, 2, before);
      expect(answers.map(variantOf).sort()).toEqual(['direct', 'supersafe']);
      // The page sends the clicked points, within a few pixels of where the test clicked.
      for (const answer of answers) expect(answer.request.coordinates).toHaveLength(2);
      await expectRoutesShown(page, answers);
      expect(await page.locator('#points .point-label').allTextContents()).toEqual(['Start', 'Destination']);
      // Clicking the grey direct route on the map selects it and shows its turns, without moving a point.
      const asked = opened.answers.length;
      const places = await page.locator('#points .point-place').allTextContents();
      await page.locator('path.route-direct').dispatchEvent('click');
      expect(await page.locator('#points .point-place').allTextContents()).toEqual(places);
      await expect.poll(() => page.locator('.route-card.selected').getAttribute('data-variant')).toBe('direct');
      const direct = answers.find((answer) => variantOf(answer) === 'direct')!;
      expect(await page.locator('.steps .instruction').allTextContents()).toEqual(direct.body.route.steps.map((step: any) => step.maneuver.instruction));
      await page.locator('.route-card[data-variant="supersafe"]').click();
      expect(await page.locator('path.route-supersafe.selected').count()).toBe(1);
      expect(opened.answers.length).toBe(asked);
      await page.getByRole('button', { name: 'Clear' }).click();
    }
    // Four cities' maps and routes in one test: room for a busy machine, not a speed claim.
  }, 240_000);

  it('plans with the keyboard alone (sample route), adds a stop and follows a dragged destination', async () => {
    const opened = await open('london');
    const { page } = opened;
    const before = opened.answers.length;
    await page.getByRole('button', { name: 'Sample route' }).focus();
    await page.keyboard.press('Enter');
    await expectRoutesShown(page, await directionsAnswers(opened, 2, before));

    const withStop = opened.answers.length;
    await page.locator('input[name="click-mode"][value="stop"]').check({ force: true });
    await clickAt(page, [-0.1292, 51.5235]);
    const stopped = await directionsAnswers(opened, 2, withStop);
    for (const answer of stopped) expect(answer.request.coordinates).toHaveLength(3);
    expect(stopped[0]!.body.legs).toHaveLength(2);
    expect(await page.locator('#points .point-label').allTextContents()).toEqual(['Start', 'Stop 1', 'Destination']);
    await expectRoutesShown(page, stopped);

    const dragged = opened.answers.length;
    await page.locator('#map:not([data-moving])').waitFor();
    const pin = page.locator('.leaflet-marker-pane .pin-end');
    const box = (await pin.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 - 30, { steps: 5 });
    await page.mouse.up();
    const afterDrag = await directionsAnswers(opened, 2, dragged);
    expect(afterDrag[0]!.request.coordinates[2]).not.toEqual(stopped[0]!.request.coordinates[2]);
    await expectRoutesShown(page, afterDrag);
  });

  it('switches the page and the instructions, banners and voice cues to Spanish', async () => {
    const opened = await open('london');
    const { page } = opened;
    await page.getByRole('button', { name: 'Sample route' }).click();
    await expectRoutesShown(page, await directionsAnswers(opened, 2, 0));
    expect(await page.locator('.steps .instruction').last().textContent()).toBe('Arrive at destination');

    const before = opened.answers.length;
    await page.getByLabel('Language').selectOption('es');
    const spanish = await directionsAnswers(opened, 2, before);
    for (const answer of spanish) expect(answer.request.language).toBe('es');
    await expectRoutesShown(page, spanish, 'es');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('.steps').getAttribute('lang')).toBe('es');
    expect(await page.locator('.steps .instruction').last().textContent()).toBe('Llega a tu destino');

    // The page's own words follow: controls, tabs, cards, lists and the legend.
    for (const label of ['Ciudad', 'Idioma', 'Rutas de noche', 'Salida (hora local)', 'Evitar cuestas']) expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Ruta', 'Bicis y eventos', 'Avisos', 'Ajustes']);
    for (const name of ['Ruta de ejemplo', 'Invertir', 'Borrar', 'Comparar opciones con bici compartida', 'Acercar', 'Alejar']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(1);
    for (const name of ['Salida', 'Destino', 'Parada', 'Aviso', 'Bici', 'A pie']) expect(await page.getByRole('radio', { name, exact: true }).count(), name).toBe(1);
    expect(await page.locator('#city option:checked').textContent()).toBe('Londres');
    expect(await page.locator('#points .point-label').allTextContents()).toEqual(['Salida', 'Destino']);
    expect(await page.locator('.route-card .card-title').allTextContents()).toEqual(['Más segura', 'Directa']);
    expect(await page.locator('.steps-title').textContent()).toBe('Paso a paso · Más segura');
    expect(await page.locator('.route-card[data-variant="supersafe"] .bar-label').allTextContents()).toEqual(['tranquila', 'vía ciclista', 'moderada', 'con tráfico', 'compartida', 'a pie']);
    expect(await page.locator('#status .city-coverage').textContent()).toBe(MESSAGES.es['coverage.london']);
    expect(await page.locator('#status .city-facts').textContent()).toMatch(/^[\d.]+ calles y caminos · datos de alumbrado · alturas de un modelo de elevación · grafo london-/);
    expect(await page.locator('.route-card[data-variant="supersafe"] .elevation .climb').textContent()).toMatch(/^subida \d+\u00a0m · bajada \d+\u00a0m$/);
    // The longer Spanish words neither wrap nor hide: each safety label and elevation figure on
    // one line and whole, the attribution clear of the scale bar, every city's name whole.
    expect(await layoutFaults(page)).toEqual(NO_LAYOUT_FAULTS);
    expect(await page.locator('.legend h2').allTextContents()).toEqual(['Clases de seguridad', 'En el mapa']);
    expect(await page.locator('.legend [data-kind="busy"] .legend-label').textContent()).toBe('Calle con mucho tráfico');
    expect(await page.locator('.legend [data-mark="route-selected"] .legend-label').textContent()).toBe('Ruta elegida, con sus clases de seguridad');
    await page.getByRole('tab', { name: 'Bicis y eventos' }).click();
    expect(await page.getByRole('button', { name: 'Iniciar sesión como ciclista' }).count()).toBe(1);
    await page.getByRole('tab', { name: 'Ajustes' }).click();
    expect(await page.getByLabel('Clave de la API').count()).toBe(1);
    // None of the page's English sentences is left anywhere in it (single words are left out of
    // the check: a street name may hold one).
    const shown = await page.evaluate(() => `${document.querySelector('#panel').innerText}\n${document.querySelector('.legend').innerText}\n${document.querySelector('.leaflet-control-attribution').innerText}`);
    const english = Object.entries(MESSAGES.en).filter(([key, message]) => typeof message === 'string' && message.includes(' ') && message !== (MESSAGES.es as Record<string, unknown>)[key]);
    expect(english.length).toBeGreaterThan(50);
    for (const [key, message] of english) expect(shown, key).not.toContain(message);
    await page.getByRole('tab', { name: 'Ruta' }).click();
    const supersafe = spanish.find((answer) => variantOf(answer) === 'supersafe')!.body.route;
    const cues = supersafe.steps.flatMap((step: any) => (step.voice_instructions ?? []).map((cue: any) => cue.announcement));
    expect(cues.length).toBeGreaterThan(0);
    expect(await page.locator('.steps .cue').allTextContents()).toEqual(cues);
    const banners = supersafe.steps.filter((step: any) => step.banner_instructions?.length).map((step: any) => step.banner_instructions[0].primary.text);
    expect((await page.locator('.steps .banner strong').allTextContents())).toEqual(banners);
    // Each cue can be spoken where the browser has speech synthesis.
    const speech = await page.evaluate(() => 'speechSynthesis' in window);
    expect(await page.getByRole('button', { name: `Decir: ${cues[0]}`, includeHidden: true }).count()).toBe(speech ? 1 : 0);
  });

  it.each([
    ['en', 'Bikes & events'],
    ['es', 'Bicis y eventos'],
  ] as const)('lays out the routes, their elevation profiles and the events list without faults (%s), and leaves screenshots of them', async (language, nearbyTab) => {
    await mkdir(screenshotDir(), { recursive: true });
    const opened = await open('london');
    const { page } = opened;
    await page.locator('#language').selectOption(language);
    await page.locator('#sample').click();
    const answers = await directionsAnswers(opened, 2, 0);
    await expectRoutesShown(page, answers, language);
    await tilesDrawn(page);
    expect(await layoutFaults(page)).toEqual(NO_LAYOUT_FAULTS);
    const saved = [await saveScreenshot(page, `playground-london-${language}-routes.png`)];
    // The safer route's card, its elevation profile under its figures.
    const card = page.locator('.route-card', { has: page.locator('.elevation') }).first();
    await card.scrollIntoViewIfNeeded();
    expect(await layoutFaults(page)).toEqual(NO_LAYOUT_FAULTS);
    saved.push(await saveScreenshot(card, `playground-london-${language}-elevation.png`));

    await page.getByRole('tab', { name: nearbyTab }).click();
    await page.locator('#show-events').check();
    const latestEvents = () => opened.answers.filter((answer) => answer.path === '/events/nearby/').at(-1);
    await expect.poll(async () => (await page.locator('.events li').count()) === latestEvents()?.body.events.length, { timeout: 15_000 }).toBe(true);
    expect(latestEvents()!.body.events.length).toBeGreaterThan(0);
    await tilesDrawn(page);
    expect(await layoutFaults(page)).toEqual(NO_LAYOUT_FAULTS);
    saved.push(await saveScreenshot(page, `playground-london-${language}-events.png`));
    // Each screenshot is a picture of something, written by this run.
    for (const path of saved) expect((await stat(path)).size, path).toBeGreaterThan(5_000);
  });

  it('routes at night on lit streets and shows the night map, and by day again', async () => {
    const opened = await open('london');
    const { page } = opened;
    await page.getByLabel('Night routing').selectOption('night');
    expect(await page.locator('#map').getAttribute('class')).toContain('night');
    await page.getByRole('button', { name: 'Sample route' }).click();
    const night = await directionsAnswers(opened, 2, 0);
    for (const answer of night) {
      expect(answer.request).toMatchObject({ nighttime: true, departure_time: DEPARTURE });
      expect(answer.body.metadata.nighttime).toBe(true);
      expect(answer.body.sublabel).toBe('Prefers well-lit roads');
    }
    await expectRoutesShown(page, night);
    expect(await page.locator('.route-card .sublabel').allTextContents()).toEqual(['Prefers well-lit roads', 'Prefers well-lit roads']);
    expect(await page.locator('.legend').textContent()).toContain('Lit street');

    const before = opened.answers.length;
    await page.getByLabel('Night routing').selectOption('day');
    const day = await directionsAnswers(opened, 2, before);
    for (const answer of day) expect(answer.request.nighttime).toBe(false);
    await expectRoutesShown(page, day);
    expect(await page.locator('.route-card .sublabel').count()).toBe(0);
    expect(await page.locator('#map').getAttribute('class')).not.toContain('night');
  });

  it('plans on foot: one walking route', async () => {
    const opened = await open('new-york');
    const { page } = opened;
    await page.locator('input[name="profile"][value="walking"]').check({ force: true });
    await page.getByRole('button', { name: 'Sample route' }).click();
    const [walking] = await directionsAnswers(opened, 1, 0);
    expect(walking!.request.profile).toBe('walking');
    await expectRoutesShown(page, [walking!]);
    expect(walking!.body.route.steps.every((step: any) => step.mode === 'walking')).toBe(true);
  });

  it("draws the direct route's alternatives when asked, each a card and a grey line that selects it", async () => {
    const opened = await open('london');
    const { page } = opened;
    await page.getByLabel('Alternatives', { exact: true }).check();
    // Across Bloomsbury, where the direct route has alternatives (docs/routing.md's example).
    const bloomsbury: [[number, number], [number, number]] = [[-0.1337, 51.5246], [-0.1246, 51.5219]];
    await showPoints(page, bloomsbury);
    await clickAt(page, bloomsbury[0]);
    await clickAt(page, bloomsbury[1]);
    const answers = await directionsAnswers(opened, 2, 0);
    const direct = answers.find((answer) => variantOf(answer) === 'direct')!;
    expect(direct.request.alternatives).toBe(true);
    expect(answers.find((answer) => variantOf(answer) === 'supersafe')!.request).not.toHaveProperty('alternatives');
    const alternatives = direct.body.alternatives;
    expect(alternatives.length).toBeGreaterThanOrEqual(2);
    await page.locator('#results:not([aria-busy])').waitFor();
    await expect.poll(() => page.locator('.route-card').count()).toBe(2 + alternatives.length);
    for (const [index, alternative] of alternatives.entries()) {
      const card = page.locator(`.route-card[data-variant="alternative-${index + 1}"]`);
      expect(await card.locator('.card-title').textContent()).toBe(`Alternative ${index + 1}`);
      expect(await card.locator('.distance').textContent()).toBe(metres(alternative.distance));
      expect(await card.locator('.bar-row[data-class="busy"] .bar-value').textContent()).toBe(metres(alternative.safety_breakdown.busy));
    }
    // The second alternative's grey line selects it and lists its own turns.
    await page.locator('path.route-alternative-2').dispatchEvent('click');
    await expect.poll(() => page.locator('.route-card.selected').getAttribute('data-variant')).toBe('alternative-2');
    expect(await page.locator('.steps .instruction').allTextContents()).toEqual(alternatives[1].steps.map((step: any) => step.maneuver.instruction));
    expect(await page.locator('path.route-alternative-2.selected').count()).toBe(1);
  });

  it('plans the safer card and the sentence at the grade the Safer route select names', async () => {
    const opened = await open('new-york');
    const { page } = opened;
    await page.getByRole('button', { name: 'Sample route' }).click();
    const first = await directionsAnswers(opened, 2, 0);
    await expectRoutesShown(page, first);
    const before = opened.answers.length;
    await page.getByLabel('Safer route').selectOption('balanced');
    // Only the safer card is asked again: the direct route's request is the same (the page keeps its answer).
    const [safer] = await directionsAnswers(opened, 1, before);
    expect(variantOf(safer!)).toBe('supersafe');
    expect(safer!.request).toMatchObject({ safety: 'balanced' });
    expect(safer!.request).not.toHaveProperty('supersafe');
    expect(safer!.body.metadata).toMatchObject({ safety: 0.25, supersafe: false });
    await explainAnswer(opened, before, (request) => request.safety === 'balanced');
    await expectRoutesShown(page, [safer!, first.find((answer) => variantOf(answer) === 'direct')!]);
    const card = page.locator('.route-card[data-variant="supersafe"]');
    expect(await card.locator('.card-title').textContent()).toBe(MESSAGES.en['safety.balanced']);
    expect(await card.locator('.card-note').textContent()).toBe(MESSAGES.en['plan.gradedNote']);
  });

  it('plans both cards and the sentence for the bicycle the Bicycle select names, and leaves hybrid out of the requests', async () => {
    const opened = await open('new-york');
    const { page } = opened;
    await page.getByRole('button', { name: 'Sample route' }).click();
    const first = await directionsAnswers(opened, 2, 0);
    for (const answer of first) expect(answer.request).not.toHaveProperty('bicycle_type');
    const before = opened.answers.length;
    await page.getByLabel('Bicycle').selectOption('cargo');
    const cargo = await directionsAnswers(opened, 2, before);
    expect(cargo.map(variantOf).sort()).toEqual(['direct', 'supersafe']);
    for (const answer of cargo) {
      expect(answer.request).toMatchObject({ bicycle_type: 'cargo' });
      expect(answer.body.metadata).toMatchObject({ bicycle_type: 'cargo' });
    }
    await explainAnswer(opened, before, (request) => request.bicycle_type === 'cargo');
    await expectRoutesShown(page, cargo);
    // A cargo bike is timed at its own, slower speed: the card shows the answer's duration, longer than the hybrid's.
    const hybridSafer = first.find((answer) => variantOf(answer) === 'supersafe')!;
    const cargoSafer = cargo.find((answer) => variantOf(answer) === 'supersafe')!;
    expect(cargoSafer.body.route.duration).toBeGreaterThan(hybridSafer.body.route.duration);
  });

  it('draws each route\'s elevation profile in San Francisco, and plans again avoiding hills when asked', async () => {
    const opened = await open('sf-bay');
    const { page } = opened;
    expect(await page.locator('#status .city-coverage').textContent()).toBe(MESSAGES.en['coverage.sf-bay']);
    expect(await page.locator('#status .city-facts').textContent()).toContain('heights from an elevation model');
    await page.getByRole('button', { name: 'Sample route' }).click();
    const flat = await directionsAnswers(opened, 2, 0);
    await expectRoutesShown(page, flat);
    /** Each card's profile: its climb and descent, and one point of its line per height the API gave. */
    const expectProfiles = async (answers: Opened['answers'], language: 'en' | 'es' = 'en') => {
      for (const answer of answers) {
        const { route, metadata } = answer.body;
        const card = page.locator(`.route-card[data-variant="${variantOf(answer)}"]`);
        const values = { gain: metres(route.elevation_gain, language), loss: metres(route.elevation_loss, language) };
        expect(await card.locator('.elevation .climb').textContent()).toBe((MESSAGES[language]['profile.climb'] as (v: object) => string)(values));
        expect(await card.locator('.elevation').getAttribute('aria-label')).toContain(values.gain);
        const drawn = await card.locator('.profile-line').evaluateAll((lines: any[]) => lines.reduce((sum, line) => sum + line.points.numberOfItems, 0));
        expect(drawn).toBe(metadata.elevation_profile.filter(([, height]: [number, number | null]) => height !== null).length);
      }
    };
    // The sample route climbs Nob Hill.
    const supersafe = flat.find((answer) => variantOf(answer) === 'supersafe')!;
    expect(supersafe.body.route.elevation_gain).toBeGreaterThan(60);
    await expectProfiles(flat);

    const before = opened.answers.length;
    await page.getByLabel('Avoid hills').check();
    const avoiding = await directionsAnswers(opened, 2, before);
    for (const answer of avoiding) expect(answer.request.avoid_hills).toBe(true);
    await explainAnswer(opened, before, (request) => request.avoid_hills === true);
    await expectRoutesShown(page, avoiding);
    await expectProfiles(avoiding);
    const gentler = avoiding.find((answer) => variantOf(answer) === 'supersafe')!;
    expect(gentler.body.metadata.avoid_hills).toBe(true);
    expect(gentler.body.route.elevation_gain).toBeLessThan(supersafe.body.route.elevation_gain);
    expect(await page.locator('.route-card[data-variant="supersafe"] .sublabel.hills').textContent()).toBe(MESSAGES.en['plan.hillsAvoided']);

    const spanish = opened.answers.length;
    await page.getByLabel('Language').selectOption('es');
    const inSpanish = await directionsAnswers(opened, 2, spanish);
    await expectRoutesShown(page, inSpanish, 'es');
    await expectProfiles(inSpanish, 'es');
  });

  it('downloads the selected route as a GPX file, the route the page shows', async () => {
    const opened = await open('sf-bay');
    const { page } = opened;
    await page.getByRole('button', { name: 'Sample route' }).click();
    const answers = await directionsAnswers(opened, 2, 0);
    await expectRoutesShown(page, answers);
    await page.locator('.route-card[data-variant="direct"]').click();
    const direct = answers.find((answer) => variantOf(answer) === 'direct')!;
    const before = opened.answers.length;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download GPX' }).click()]);
    // The same request as the direct route's, asking for GPX.
    const asked = () => opened.answers.slice(before).find((answer) => answer.path === '/directions/v2/');
    await expect.poll(() => asked()?.request).toEqual({ ...direct.request, format: 'gpx' });
    expect(download.suggestedFilename()).toMatch(/^spoke-route-[0-9a-f-]{36}\.gpx$/);
    const gpx = await readFile((await download.path())!, 'utf8');
    expect(await gpxSchemaProblems(gpx)).toEqual([]);
    const rounded = ([lon, lat]: number[]) => [Number(lon!.toFixed(6)), Number(lat!.toFixed(6))];
    expect(gpxPoints(gpx, 'trkpt').map((point) => point.position)).toEqual(direct.body.route.geometry.coordinates.map(rounded));
    expect(gpxPoints(gpx, 'rtept').map((point) => point.name)).toEqual(await page.locator('.steps .instruction').allTextContents());
    expect(gpx).toMatch(/<trk>\s*<name>Direct route<\/name>/);
    await page.context().close();
  });

  it('says where no elevation model gives heights (Los Angeles) instead of drawing a profile', async () => {
    const opened = await open('los-angeles');
    expect(await opened.page.locator('#status .city-facts').textContent()).toContain('no elevation model (routes are flat)');
    await opened.page.getByRole('button', { name: 'Sample route' }).click();
    const answers = await directionsAnswers(opened, 2, 0);
    await expectRoutesShown(opened.page, answers);
    for (const answer of answers) expect(answer.body.metadata.elevation_profile).toBeUndefined();
    expect(await opened.page.locator('.route-card .elevation.none').allTextContents()).toEqual([MESSAGES.en['profile.none'], MESSAGES.en['profile.none']]);
  });

  it('says what went wrong as a person would want to read it', async () => {
    // A key the platform refuses.
    const refused = await open('london', { apiKey: 'spk_0000000000000000_not-a-real-key' });
    await refused.page.getByRole('button', { name: 'Sample route' }).click();
    const alert = refused.page.locator('#results [role="alert"]');
    await expect.poll(() => alert.textContent()).toContain('The API key was not accepted (Invalid credentials).');
    expect(await alert.textContent()).toContain('HTTP 401 · POST /directions/v2/');

    // A point far from the loaded map data: no route, and why.
    const opened = await open('london');
    await clickAt(opened.page, london.sample_route[0]);
    // Richmond Park: in London, kilometres from the sample extracts.
    await opened.page.evaluate(() => (window as any).playground.map.setView([51.445, -0.275], 15, { animate: false }));
    await clickAt(opened.page, [-0.275, 51.445]);
    const [answer] = await directionsAnswers(opened, 2, 0);
    expect(answer!.body.route).toBeNull();
    await expect.poll(() => opened.page.locator('#results').textContent()).toContain('No route between these points.');

    // A key whose limit runs out mid-plan: the wait, counted down.
    await awayFromWindowEdge(60, 10);
    const tight = await newKey({ name: 'playground tight', plan: 'enterprise', limits: { perMinute: 1, perHour: 100, perDay: 1_000 } });
    const limited = await open('london', { apiKey: tight });
    await limited.page.getByRole('button', { name: 'Sample route' }).click();
    const limitAlert = limited.page.locator('#results [role="alert"]');
    await expect.poll(() => limitAlert.textContent()).toMatch(/This key has used up its requests for now\. Try again in \d+ s\./);
    expect(await limitAlert.locator('.countdown').textContent()).toMatch(/Planning again in \d+ s/);
  });

  it('signs the demo rider in at the identity provider and shows the bike stations near the map centre', async () => {
    const opened = await open('new-york');
    const { page } = opened;
    await page.getByRole('tab', { name: 'Bikes & events' }).click();
    await page.getByRole('button', { name: 'Sign in as a rider' }).click();
    await page.getByLabel('Email').fill(platform.demo.rider_email);
    await page.getByLabel('Password').fill(platform.demo.rider_password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.bikes-summary').waitFor({ timeout: 30_000 });
    // The authorization response's code and state leave the address bar (and so the history).
    expect(new URL(page.url()).search).toBe('');
    expect(await page.locator('#panel-nearby .rider').textContent()).toContain('Signed in as Demo Rider (demo.rider@spoke.test)');
    // The map may settle and ask again: the page shows the latest answer.
    const latest = () => opened.answers.filter((answer) => answer.path === '/bikes/nearby/').at(-1)!;
    await expect.poll(async () => (await page.locator('.bikes-summary').textContent())?.startsWith(`${latest().body.metadata.total_stations} stations and 0 dockless bikes`)).toBe(true);
    expect(latest().status).toBe(200);
    expect(latest().body.metadata.providers).toEqual(['Citi Bike']);
    expect(latest().body.metadata.total_stations).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.leaflet-marker-pane .pin-bikes').count()).toBe(latest().body.stations.length);
    // The stations' markers have their entries in the legend, and so has every other mark.
    expect(await page.locator('.legend [data-mark="station"] .legend-label').textContent()).toBe('Bike-share station: bikes available');
    await expectEveryMarkInTheLegend(page);

    await page.getByLabel('Show group rides and leisure routes nearby').check();
    const latestEvents = () => opened.answers.filter((answer) => answer.path === '/events/nearby/').at(-1);
    await expect.poll(async () => (await page.locator('.events li').count()) === latestEvents()?.body.events.length).toBe(true);
    expect(latestEvents()!.body.events.length).toBeGreaterThan(0);
    // Named without their emoji, which a machine without an emoji font draws as empty boxes.
    expect(await page.locator('.events li strong').allTextContents()).toEqual(latestEvents()!.body.events.map((event: { name: string }) => event.name));
  });

  it('shows the explanation sentence of POST /explain-supersafe/', async () => {
    const opened = await open('london');
    await opened.page.getByRole('button', { name: 'Sample route' }).click();
    // The page shows the sentence once the plan is drawn; the test's record of the answer may come a moment later.
    const sentence = await opened.page.locator('.explanation').textContent();
    await expect.poll(() => opened.answers.some((answer) => answer.path === '/explain-supersafe/')).toBe(true);
    const explained = opened.answers.find((answer) => answer.path === '/explain-supersafe/')!;
    expect(explained.status).toBe(200);
    expect(Object.values(explained.body)).toContain(sentence);
  });

  it('says the explanation is not available on a platform without POST /explain-supersafe/', async () => {
    const opened = await open('london');
    await withoutEndpoint(opened.page, '/explain-supersafe/', 404);
    await opened.page.getByRole('button', { name: 'Sample route' }).click();
    await expect.poll(() => opened.page.locator('#results .notice.unavailable').textContent()).toContain('(POST /explain-supersafe/) is not available on this platform yet.');
  });

  it('compares multi-modal options with bike share from POST /multi-modal/v2/', async () => {
    const opened = await open('london');
    const { page } = opened;
    await page.getByRole('button', { name: 'Sample route' }).click();
    await page.locator('.route-card').first().waitFor();
    await page.getByRole('button', { name: 'Compare options with bike share' }).click();
    await expect.poll(() => opened.answers.some((answer) => answer.path === '/multi-modal/v2/')).toBe(true);
    const answer = opened.answers.find((candidate) => candidate.path === '/multi-modal/v2/')!;
    expect(answer.status).toBe(200);
    expect(answer.request).toMatchObject({ origin: london.sample_route[0], destination: london.sample_route[1], language: 'en' });
    await expect.poll(() => page.locator('.option-card').count()).toBe(answer.body.options.length);
    expect(await page.locator('.option-card .card-title').allTextContents()).toEqual(
      answer.body.options.map((option: any) => `${option.name}${option.is_electric ? 'e-bike' : ''}${option.supersafe ? 'supersafe' : ''}`),
    );
  });

  it('says multi-modal options are not available on a platform whose POST /multi-modal/v2/ answers 503', async () => {
    const opened = await open('london');
    const { page } = opened;
    await withoutEndpoint(page, '/multi-modal/v2/', 503);
    await page.getByRole('button', { name: 'Sample route' }).click();
    await page.locator('.route-card').first().waitFor();
    await page.getByRole('button', { name: 'Compare options with bike share' }).click();
    await expect.poll(() => page.locator('#multimodal .notice.unavailable').textContent()).toContain('Multi-modal options (POST /multi-modal/v2/) are not available on this platform yet.');
    expect(await page.locator('.option-card').count()).toBe(0);
  });

  it('files a road report by clicking the map and follows its status to a reviewer accepting it', async () => {
    const opened = await open('london');
    const { page } = opened;
    await page.evaluate(() => (window as any).playground.map.setView([51.5225, -0.1318], 18, { animate: false }));
    await page.locator('input[name="click-mode"][value="report"]').check({ force: true });
    await clickAt(page, [-0.1318, 51.5225]);
    const form = page.getByRole('form', { name: 'New road report' });
    await form.getByLabel('What is wrong').selectOption('road_unsafe');
    await form.getByLabel('More precisely').selectOption('too_many_vehicles');
    await form.getByLabel('Description (optional)').fill('Lorries parked in the cycle lane every morning');
    const roadName = await form.getByLabel('Road').inputValue();
    await form.getByRole('button', { name: 'Send report' }).click();

    await expect.poll(() => opened.answers.some((answer) => answer.path === '/reports/')).toBe(true);
    const filed = opened.answers.find((answer) => answer.path === '/reports/')!;
    expect(filed.status).toBe(200);
    expect(filed.request).toMatchObject({ issue_type: 'road_unsafe', issue_subtype: 'too_many_vehicles', description: 'Lorries parked in the cycle lane every morning' });
    if (roadName) expect(filed.request.road_name).toBe(roadName);
    const id = filed.body.id;
    const item = page.locator(`.report[data-report-id="${id}"]`);
    // The automated analysis moves it to in_review within seconds; the page follows it.
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 30_000 }).toBe('in_review');
    // The page shows what it was answered; the test's record of that answer may come a moment later.
    const analysed = () => opened.answers.find((answer) => answer.path === `/reports/${id}` && answer.body?.status === 'in_review');
    await expect.poll(() => analysed() !== undefined).toBe(true);
    expect(await item.locator('.summary').textContent()).toBe(analysed()!.body.summary);

    const accepted = await runAdmin(['reports', 'accept', id, '--note', 'Seen on site']);
    expect(accepted.stdout).toContain(id);
    await item.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 15_000 }).toBe('accepted');
  });

  it('says road reports are not available on a platform without POST /reports/', async () => {
    const opened = await open('london');
    const { page } = opened;
    await withoutEndpoint(page, '/reports/', 404);
    await page.locator('input[name="click-mode"][value="report"]').check({ force: true });
    await clickAt(page, london.sample_route[1]);
    expect(await page.getByRole('tab', { name: 'Reports' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Send report' }).click();
    await expect.poll(() => page.locator('#panel-reports .notice.unavailable').textContent()).toContain('Road reports (POST /reports/) are not available on this platform yet.');
    expect(await page.locator('.report').count()).toBe(0);
  });

  it('opens each city on the busiest part of its extract, not on the whole of it', async () => {
    const { page } = await open('london');
    for (const city of config.cities) {
      if (city.id !== 'london') {
        await page.getByLabel('City', { exact: true }).selectOption(city.id);
        await page.locator(`#map[data-ready="true"][data-city="${city.id}"]`).waitFor();
      }
      const baseMap = (await (await fetch(`${platform.playground_url}/cities/${city.id}/base-map.json`)).json()) as { bbox: number[]; opening_view: number[] };
      await page.locator('#map:not([data-moving])').waitFor();
      const view = await page.evaluate(([west, south, east, north, bbox]: any) => {
        const map = (window as any).playground.map;
        const centre = map.getCenter();
        return {
          centre: [centre.lng, centre.lat],
          zoom: map.getZoom(),
          wholeExtractZoom: map.getBoundsZoom([[bbox[1], bbox[0]], [bbox[3], bbox[2]]]),
          openingViewZoom: map.getBoundsZoom([[south, west], [north, east]]),
        };
      }, [...baseMap.opening_view, baseMap.bbox] as any);
      const [west, south, east, north] = baseMap.opening_view as [number, number, number, number];
      expect(view.centre[0], city.id).toBeCloseTo((west + east) / 2, 3);
      expect(view.centre[1], city.id).toBeCloseTo((south + north) / 2, 3);
      expect(view.zoom, city.id).toBe(view.openingViewZoom);
      expect(view.zoom, city.id).toBeGreaterThan(view.wholeExtractZoom);
    }
  }, 120_000);

  it('clears the hover label of the last city when another city is chosen', async () => {
    const { page } = await open('london');
    await hoverBusyStreet(page);
    await expect.poll(() => page.locator('.hover-label').isVisible()).toBe(true);
    expect(await page.locator('.hover-label').textContent()).toContain('busy road');
    await page.getByLabel('City', { exact: true }).selectOption('new-york');
    await page.locator('#map[data-ready="true"][data-city="new-york"]').waitFor();
    expect(await page.locator('.hover-label').isVisible()).toBe(false);
    expect(await page.locator('.hover-label').textContent()).toBe('');
  });

  it('shows disruptions near the route and the ride with their markers and legend entries, SVG leg icons, in English and in Spanish', async () => {
    // An accepted hazard as the reports pipeline writes it, on the direct sample route's longest
    // street, for one morning in 2020 that no other test plans: only this test's departure meets it.
    useLocalAws();
    const departure = '2020-01-06T10:30';
    const direct = { coordinates: london.sample_route, departure_time: departure, supersafe: false };
    const route = (await call('/directions/v2/', { key, body: direct })).body.route;
    const longest = route.steps.reduce((best: any, step: any) => (step.distance > best.distance ? step : best));
    const item: AvoidanceItem = {
      city: 'london',
      report_id: randomUUID(),
      effect: 'unsafe',
      issue_type: 'road_unsafe',
      issue_subtype: 'too_many_vehicles',
      location: longest.geometry.coordinates[Math.floor(longest.geometry.coordinates.length / 2)],
      way_id: null,
      road_name: longest.name || null,
      until: '2020-01-06T12:00:00Z',
      accepted_at: '2020-01-06T09:00:00Z',
    };
    await dynamo().send(new PutCommand({ TableName: tableName('routeAvoidances'), Item: item }));
    try {
      const disruptionsOf = async () => (await call('/directions/v2/', { key, body: direct })).body.disruptions ?? [];
      for (let attempt = 0; attempt < 60 && !(await disruptionsOf()).some((disruption: any) => disruption.id === `report-${item.report_id}`); attempt++) await sleep(500);

      const opened = await open('london');
      const { page } = opened;
      await page.getByLabel('Departure (city time)').fill(departure);
      await page.getByRole('button', { name: 'Sample route' }).click();
      const answers = await directionsAnswers(opened, 2, 0);
      await expectRoutesShown(page, answers);
      const listed = new Set(answers.flatMap((answer) => (answer.body.disruptions ?? []).map((disruption: any) => disruption.id)));
      expect(listed.has(`report-${item.report_id}`)).toBe(true);
      expect(await page.locator('.disruptions li').count()).toBe(listed.size);
      expect(await page.locator('.leaflet-marker-pane .pin-disruption').count()).toBeGreaterThanOrEqual(listed.size);
      expect(await page.locator('.legend [data-mark="disruption"] .legend-label').textContent()).toBe('Disruption near the route (closure, roadworks, accepted report)');
      expect(await expectEveryMarkInTheLegend(page)).toEqual(expect.arrayContaining(['start', 'end', 'route-selected', 'route-other', 'disruption']));

      const compare = async (name: string) => {
        const asked = opened.answers.length;
        await page.getByRole('button', { name }).click();
        await expect.poll(() => opened.answers.slice(asked).some((answer) => answer.path === '/multi-modal/v2/')).toBe(true);
        const answer = opened.answers.slice(asked).find((candidate) => candidate.path === '/multi-modal/v2/')!;
        expect(answer.status).toBe(200);
        await expect.poll(() => page.locator('.option-card').count()).toBe(answer.body.options.length);
        return answer.body.options as any[];
      };
      const options = await compare('Compare options with bike share');
      // Each leg's mode is an SVG pictogram with its name, never an emoji.
      const legs = options.flatMap((option) => option.legs);
      expect(await page.locator('.option-card .leg svg.icon').count()).toBe(legs.length);
      expect(await page.locator('.option-card .leg svg.icon').evaluateAll((icons) => icons.map((icon: any) => icon.getAttribute('aria-label')))).toEqual(
        legs.map((leg) => (leg.mode === 'walking' ? 'Walk' : 'Ride')),
      );
      expect(await page.locator('#multimodal').textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
      expect(await expectEveryMarkInTheLegend(page)).toEqual(expect.arrayContaining(['mm-ride']));
      // A bike-share option: walk to a station, ride, walk on; its stations' markers are pictograms too.
      const shared = options.findIndex((option) => option.pickup_station && option.legs.some((leg: any) => leg.mode === 'walking'));
      expect(shared).toBeGreaterThanOrEqual(0);
      await page.locator('.option-card').nth(shared).click();
      await expect.poll(() => page.locator('.leaflet-marker-pane .pin-station').count()).toBeGreaterThan(0);
      expect(await page.locator('.leaflet-marker-pane .pin-station svg.icon-bicycle').count()).toBe(await page.locator('.leaflet-marker-pane .pin-station').count());
      expect(await expectEveryMarkInTheLegend(page)).toEqual(expect.arrayContaining(['mm-ride', 'mm-walk', 'mm-station']));
      const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);
      const withDisruptions = options.filter((option) => option.disruptions?.length);
      expect(withDisruptions.length).toBeGreaterThan(0);
      expect(await page.locator('.option-card .disruption-count').allTextContents()).toEqual(
        withDisruptions.map((option) => plural(option.disruptions.length, '1 disruption near the ride', `${option.disruptions.length} disruptions near the ride`)),
      );

      const before = opened.answers.length;
      await page.getByLabel('Language').selectOption('es');
      await expectRoutesShown(page, await directionsAnswers(opened, 2, before), 'es');
      expect(await page.locator('.disruptions h3').textContent()).toBe('Incidencias cerca de la ruta');
      expect(await page.locator('.legend [data-mark="disruption"] .legend-label').textContent()).toBe('Incidencia cerca de la ruta (corte, obras, aviso aceptado)');
      const spanishOptions = await compare('Comparar opciones con bici compartida');
      expect(await page.locator('.option-card .disruption-count').allTextContents()).toEqual(
        spanishOptions
          .filter((option) => option.disruptions?.length)
          .map((option) => plural(option.disruptions.length, '1 incidencia cerca del trayecto', `${option.disruptions.length} incidencias cerca del trayecto`)),
      );
      expect(await page.locator('.option-card .leg svg.icon').evaluateAll((icons) => [...new Set(icons.map((icon: any) => icon.getAttribute('aria-label')))].sort())).toEqual(['A pie', 'En bici']);
    } finally {
      await dynamo().send(new DeleteCommand({ TableName: tableName('routeAvoidances'), Key: { city: item.city, report_id: item.report_id } }));
    }
  }, 120_000);

  it('has labelled controls and tabs that work from the keyboard', async () => {
    const { page } = await open('london');
    for (const label of ['City', 'Language', 'Night routing', 'Departure (city time)']) expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    for (const name of ['Start', 'Destination', 'Stop', 'Report', 'Bike', 'Foot']) expect(await page.getByRole('radio', { name, exact: true }).count(), name).toBe(1);
    await page.getByRole('tab', { name: 'Route' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Bikes & events' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('#panel-nearby').isVisible()).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByLabel('API key').inputValue()).toBe(key);
  });
});
