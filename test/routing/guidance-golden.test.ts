import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { CityId } from '../../core/cities/index.ts';
import { planDirections, type RouteBody } from '../../functions/directions/directions.ts';
import { directionsRequest } from '../../functions/directions/request.ts';
import type { BannerText, Step } from '../../core/routing/guidance/steps.ts';

/**
 * Golden turn-by-turn guidance: a handful of real routes per city, planned in process by the
 * code the directions endpoint runs (only the graph comes from the test build instead of S3),
 * rendered as text a reviewer can read as a rider would, one file per city and language in
 * test/routing/golden/. A change to guidance shows up here as a readable diff.
 *
 * After a deliberate change, rewrite the files and review the diff before committing:
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/routing/guidance-golden.test.ts
 */

vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));

// No accepted road reports in these routes.
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));

const goldenDir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const updating = process.env.UPDATE_GOLDEN === '1';
// Noon in June, for walking too (paths closed at night): no route depends on when the test runs.
const DEPARTURE = '2026-06-15T12:00';

interface GoldenRoute {
  title: string;
  profile: 'cycling' | 'walking';
  supersafe: boolean;
  coordinates: [number, number][];
}

const cycling = (title: string, supersafe: boolean, ...coordinates: [number, number][]): GoldenRoute => ({ title, profile: 'cycling', supersafe, coordinates });
const walking = (title: string, ...coordinates: [number, number][]): GoldenRoute => ({ title, profile: 'walking', supersafe: false, coordinates });

const routes: Record<CityId, GoldenRoute[]> = {
  london: [
    cycling('Thanet Street to Torrington Square, round Gordon Square', false, [-0.12538, 51.52736], [-0.12947, 51.52196]),
    cycling('Tottenham Court Road to Thanet Street', true, [-0.13484, 51.521], [-0.12538, 51.52736]),
    cycling('Bloomsbury Street to Park Crescent', false, [-0.1276, 51.518], [-0.145, 51.5232]),
    cycling('Kensington Close to Poplar Grove, by two roundabouts', false, [-0.14546, 51.61193], [-0.15252, 51.60807]),
    walking('Tottenham Court Road to Montague Place', [-0.134, 51.5205], [-0.12699, 51.52088]),
  ],
  'new-york': [
    cycling('Brooklyn Bridge Promenade to Cadman Plaza East, by Johnson Street', false, [-73.98878, 40.69728], [-73.99015, 40.69532]),
    cycling('Sands Street to Henry Street, Brooklyn Heights', true, [-73.98588, 40.70013], [-73.99387, 40.6957]),
    cycling('East 42nd Street to West 33rd Street', false, [-73.97705, 40.75186], [-74.00438, 40.75592]),
    cycling('Murray Street to Christopher Street by the Hudson River Greenway', false, [-74.0095, 40.7141], [-74.00353, 40.73349]),
    walking('East 42nd Street to Bryant Park, by the park steps', [-73.97705, 40.75186], [-73.9831, 40.7536]),
    walking('Henry Street to Brooklyn Bridge Park, by Squibb Park Bridge', [-73.99387, 40.6957], [-73.999, 40.7]),
  ],
  'los-angeles': [
    cycling('Royce Drive to Westholme Avenue, across the UCLA campus', true, [-118.44259, 34.07387], [-118.43401, 34.06215]),
    cycling('Westwood Plaza to Portola Plaza', false, [-118.44477, 34.07291], [-118.43965, 34.07266]),
    cycling('Colorado Boulevard to San Rafael Avenue, Pasadena', true, [-118.17265, 34.14226], [-118.17187, 34.14747]),
    walking('Strathmore Place to Bruin Walk', [-118.44504, 34.06871], [-118.44278, 34.07097]),
  ],
  'sf-bay': [
    cycling('7th Street to Willow Street, West Oakland', true, [-122.30409, 37.80781], [-122.29721, 37.8118]),
    cycling('9th Street to Campbell Village Court, West Oakland', false, [-122.30205, 37.81021], [-122.29931, 37.80803]),
    cycling('Euclid Avenue to Haviland Road, Berkeley', false, [-122.26251, 37.88602], [-122.26063, 37.87399]),
    cycling('Hearst Avenue to Soule Road, Berkeley', false, [-122.25698, 37.87431], [-122.25756, 37.87286]),
    walking('7th Street to Chase Street, West Oakland', [-122.30262, 37.80713], [-122.30076, 37.80849]),
  ],
};

const quoted = (text: string) => `"${text}"`;

function bannerLine(banner: BannerText): string {
  return `${quoted(banner.text)} (${[banner.type, banner.modifier].filter(Boolean).join(' ')})`;
}

function renderStep(step: Step, number: number): string[] {
  const { maneuver } = step;
  const lines = [
    `${number}. [${[maneuver.type, maneuver.modifier].filter(Boolean).join(' ')}] ${maneuver.instruction}`,
    `   ${step.distance} m on ${step.name ? quoted(step.name) : '(unnamed)'}`,
  ];
  for (const voice of step.voice_instructions) lines.push(`   voice at ${voice.distance_along_geometry} m: ${quoted(voice.announcement)}`);
  for (const banner of step.banner_instructions) {
    lines.push(`   banner at ${banner.distance_along_geometry} m: ${bannerLine(banner.primary)}`);
    if (banner.secondary) lines.push(`     secondary: ${quoted(banner.secondary.text)}`);
    if (banner.sub) lines.push(`     sub: ${bannerLine(banner.sub)}`);
  }
  return lines;
}

function renderRoute(golden: GoldenRoute, route: RouteBody | null): string[] {
  const kind = golden.profile === 'walking' ? 'walking' : `cycling, ${golden.supersafe ? 'supersafe' : 'direct'}`;
  const lines = [`## ${golden.title}`, `${kind}, ${golden.coordinates.map((point) => `[${point.join(', ')}]`).join(' to ')}`];
  if (!route) return [...lines, 'no route', ''];
  lines.push(`${route.distance} m, ${route.steps.length} steps`, '');
  route.steps.forEach((step, index) => lines.push(...renderStep(step, index + 1)));
  return [...lines, ''];
}

async function renderCity(city: CityId, language: 'en' | 'es'): Promise<string> {
  const lines = [`# Guidance for ${city} in ${language}: see test/routing/guidance-golden.test.ts to regenerate.`, ''];
  for (const golden of routes[city]) {
    const request = directionsRequest.parse({
      coordinates: golden.coordinates,
      profile: golden.profile,
      ...(golden.profile === 'cycling' ? { supersafe: golden.supersafe } : {}),
      departure_time: DEPARTURE,
      language,
    });
    const outcome = await planDirections(request);
    if (outcome.kind !== 'routed') throw new Error(`${golden.title}: not routed (${outcome.kind})`);
    lines.push(...renderRoute(golden, outcome.body.route));
  }
  return lines.join('\n');
}

describe('guidance golden files', () => {
  for (const city of Object.keys(routes) as CityId[]) {
    for (const language of ['en', 'es'] as const) {
      it(`reads as recorded for ${city} in ${language}`, async () => {
        const file = join(goldenDir, `${city}.${language}.txt`);
        const rendered = await renderCity(city, language);
        if (updating) {
          mkdirSync(goldenDir, { recursive: true });
          writeFileSync(file, rendered);
        }
        expect(existsSync(file), `${file} is missing: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
        expect(rendered).toBe(readFileSync(file, 'utf8'));
      });
    }
  }
});
