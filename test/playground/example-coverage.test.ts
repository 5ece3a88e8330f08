import { describe, expect, it } from 'vitest';
import type { CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { baseMapOf } from '../../lib/local/playground/base-map.ts';
import { sampleRoutes } from '../../lib/local/playground/samples.ts';
import { coverageAt, decodedLines, NEAREST_STREET_METRES } from '../support/base-map-coverage.ts';
import { docCoordinates } from '../support/doc-coordinates.ts';
import { realGraphBytes } from '../routing/real-graphs.ts';

/**
 * Every place the README and docs/ give as an example, and every sample route of the playground,
 * lies where its city's base map draws streets (test/support/base-map-coverage.ts): a reader who
 * opens the playground on it sees the route among streets, not a marker on a blank page.
 */

const baseMaps = (Object.keys(sampleRoutes) as CityId[]).map((city) => {
  const map = baseMapOf(openGraph(realGraphBytes(city)));
  return { city, bbox: map.bbox, lines: decodedLines(map) };
});

/** The city whose base map spans the point, if any. */
const baseMapAt = (point: LonLat) => baseMaps.find(({ bbox }) => point[0] >= bbox[0] && point[0] <= bbox[2] && point[1] >= bbox[1] && point[1] <= bbox[3]);

function expectCovered(where: string, point: LonLat, city?: CityId): void {
  const label = `${where} ${JSON.stringify(point)}`;
  const map = baseMapAt(point);
  expect(map, `${label}: in no city's base map`).toBeDefined();
  if (city) expect(map!.city, label).toBe(city);
  const coverage = coverageAt(map!.lines, point);
  expect(coverage.nearestStreetMetres, `${label}: metres to the nearest drawn street`).toBeLessThanOrEqual(NEAREST_STREET_METRES);
  expect(coverage.blankQuarters, `${label}: sides with no street drawn`).toEqual([]);
}

describe('examples on the base map', () => {
  it('finds the examples the docs give in every form they write one', () => {
    const found = docCoordinates();
    // README's "Points that route", the bikes-nearby query and docs/events.md's CLI flags.
    expect(found).toContainEqual({ where: expect.stringMatching(/^README\.md:\d+$/), point: sampleRoutes['los-angeles'][0] });
    expect(found).toContainEqual({ where: expect.stringMatching(/^README\.md:\d+$/), point: [-0.1337, 51.5246] });
    expect(found).toContainEqual({ where: expect.stringMatching(/^docs\/events\.md:\d+$/), point: [-0.1263, 51.522] });
    expect(found.length).toBeGreaterThan(40);
  });

  it('puts every README and docs example coordinate where its city has streets drawn around it', () => {
    for (const { where, point } of docCoordinates()) expectCovered(where, point);
  });

  it.each(Object.keys(sampleRoutes) as CityId[])("puts %s's sample route where the base map draws streets", (city) => {
    for (const point of sampleRoutes[city]) expectCovered(`sample route of ${city}`, point, city);
  });

  it('tells a point on the blank edge of the map from one among streets', () => {
    const losAngeles = baseMaps.find((map) => map.city === 'los-angeles')!;
    // Westholme Avenue at the south-east corner of the Westwood extract: one street drawn, blank beyond.
    expect(coverageAt(losAngeles.lines, [-118.434, 34.0622]).blankQuarters).not.toEqual([]);
    expect(coverageAt(losAngeles.lines, [-118.4426, 34.0739])).toEqual({ nearestStreetMetres: expect.any(Number), blankQuarters: [] });
  });
});
