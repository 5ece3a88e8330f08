import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fromArrayBuffer } from 'geotiff';
import { beforeAll, describe, expect, it } from 'vitest';
import { haversineMetres, type LonLat, type Position } from '../../core/geo.ts';
import { EDGE_REVERSED } from '../../core/graph/flags.ts';
import { localMinutes } from '../../core/local-time.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { climbSeconds, HILL_STEEP_GRADE } from '../../core/routing/costing/costing.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { type RoutingContext } from '../../core/routing/planning/context.ts';
import { type RouteBody } from '../../core/routing/planning/route-body.ts';
import { LandmarkBound, storedLandmarks } from '../../core/routing/search/landmarks.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { SearchWorkspace } from '../../core/routing/search/workspace.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { realGraph, seededRandom } from './real-graphs.ts';
import { referenceCost } from './reference-search.ts';
import { hillContext, planHillRoute, seededHillPairs } from '../support/hill-routes.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

/**
 * Heights and hills on the real graphs: routes climb what the elevation model says they climb
 * (checked against a plain re-sampling of the model written here, not the builder's), the hill
 * preference cuts San Francisco's climbing by at least a third at a small detour, and its
 * penalties only ever add cost, so the landmark bounds computed without them stay admissible.
 */

const departureMinute = localMinutes(2026, 6, 15, 10, 30);


/**
 * The climb along a line by plain re-sampling of a GeoTIFF in degrees: the raster read with the
 * geotiff package, each height bilinear between the four samples around it (a pixel's sample at
 * its tie point when the file says pixel-is-point, as this one does, else at its centre), every 5 m, the
 * rises summed; a point next to a no-data pixel (the seam where the model's two quadrangles meet)
 * is skipped, not filled. No smoothing: San Francisco's model is a bare-earth terrain model.
 */
async function independentClimb(file: string): Promise<(line: readonly Position[]) => number> {
  const bytes = await readFile(file);
  const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
  const [values] = (await image.readRasters()) as unknown as [Float32Array];
  const noData = image.getGDALNoData();
  const width = image.getWidth();
  const [left, top] = image.getOrigin() as [number, number];
  const [stepX, stepY] = image.getResolution() as [number, number];
  const centre = (image.getGeoKeys() as { GTRasterTypeGeoKey?: number }).GTRasterTypeGeoKey === 2 ? 0 : 0.5;
  const height = (lon: number, lat: number): number => {
    const x = (lon - left) / stepX - centre;
    const y = (lat - top) / stepY - centre;
    const [i, j] = [Math.floor(x), Math.floor(y)];
    const [fx, fy] = [x - i, y - j];
    const at = (di: number, dj: number) => values[(j + dj) * width + i + di]!;
    if ([at(0, 0), at(1, 0), at(0, 1), at(1, 1)].includes(noData!)) return NaN;
    return (at(0, 0) * (1 - fx) + at(1, 0) * fx) * (1 - fy) + (at(0, 1) * (1 - fx) + at(1, 1) * fx) * fy;
  };
  return (line) => {
    let rise = 0;
    let previous = height(line[0]![0], line[0]![1]);
    for (let k = 1; k < line.length; k++) {
      const [a, b] = [line[k - 1]!, line[k]!];
      const samples = Math.max(1, Math.ceil(haversineMetres(a[0], a[1], b[0], b[1]) / 5));
      for (let s = 1; s <= samples; s++) {
        const next = height(a[0] + ((b[0] - a[0]) * s) / samples, a[1] + ((b[1] - a[1]) * s) / samples);
        if (Number.isNaN(next)) continue;
        if (next > previous) rise += next - previous;
        previous = next;
      }
    }
    return rise;
  };
}

const sfModel = join(sharedDataPath(), buildableCity('sf-bay').graph.elevation![0]!.file);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe.skipIf(!sharedDataPresent(sfModel))('San Francisco\'s climbs', () => {
  let context: RoutingContext;
  let pairs: [LonLat, LonLat][];
  beforeAll(() => {
    context = hillContext('sf-bay');
    pairs = seededHillPairs(context, 60, 2026);
  });

  it('agree with a plain re-sampling of the model along each route: within 12% or 3 m per route, 5% in all', async () => {
    const climbOf = await independentClimb(sfModel);
    let reported = 0;
    let resampled = 0;
    for (const pair of pairs) {
      for (const supersafe of [true, false]) {
        const { body } = planHillRoute(context, pair, { supersafe, avoidHills: false })!;
        const expected = climbOf(body.geometry.coordinates);
        expect(Math.abs(body.elevation_gain - expected), `${JSON.stringify(pair)}: ${body.elevation_gain} m against ${expected.toFixed(1)} m`).toBeLessThanOrEqual(Math.max(3, 0.12 * expected));
        reported += body.elevation_gain;
        resampled += expected;
      }
    }
    expect(resampled).toBeGreaterThan(pairs.length * 2 * 20); // San Francisco is hilly: more than 20 m a route on average
    expect(Math.abs(reported - resampled) / resampled).toBeLessThanOrEqual(0.05);
  });

  it('add up: steps\' climbs to the route\'s, each step\'s delta_elevation to its climb less its descent, the profile to the net climb', () => {
    for (const pair of pairs.slice(0, 20)) {
      const { body, profile } = planHillRoute(context, pair, { supersafe: true, avoidHills: false })!;
      const sum = (pick: (step: RouteBody['steps'][number]) => number) => body.steps.reduce((total, step) => total + pick(step), 0);
      expect(sum((step) => step.elevation_gain)).toBeCloseTo(body.elevation_gain, 0);
      expect(sum((step) => step.elevation_loss)).toBeCloseTo(body.elevation_loss, 0);
      for (const step of body.steps) expect(step.delta_elevation).toBeCloseTo(step.elevation_gain - step.elevation_loss, 0);
      expect(profile).not.toBeNull();
      const [first, last] = [profile![0]!, profile![profile!.length - 1]!];
      expect(first[0]).toBe(0);
      expect(Math.abs(last[0] - body.distance)).toBeLessThanOrEqual(profile!.length);
      // Climb and descent are stored per segment to the decimetre: each rounds by up to 0.1 m net.
      expect(Math.abs(last[1]! - first[1]! - (body.elevation_gain - body.elevation_loss))).toBeLessThanOrEqual(0.1 * profile!.length);
    }
  });

  for (const supersafe of [true, false]) {
    it(`fall by at least a third with the hill preference (${supersafe ? 'supersafe' : 'direct'}), at a median detour of at most 1.15`, () => {
      let flat = 0;
      let avoiding = 0;
      const detours: number[] = [];
      for (const pair of pairs) {
        const without = planHillRoute(context, pair, { supersafe, avoidHills: false })!.body;
        const withHills = planHillRoute(context, pair, { supersafe, avoidHills: true })!.body;
        flat += without.elevation_gain;
        avoiding += withHills.elevation_gain;
        detours.push(withHills.distance / without.distance);
      }
      expect(avoiding).toBeLessThanOrEqual((2 / 3) * flat);
      expect(median(detours)).toBeLessThanOrEqual(1.15);
    });
  }
});

describe('the hill preference\'s costs', () => {
  it('climbing costs more the steeper it is, per metre climbed; level and descending ways cost nothing more', () => {
    expect(climbSeconds(0, 100)).toBe(0);
    expect(climbSeconds(-5, 100)).toBe(0);
    const perMetre = (grade: number) => climbSeconds(grade * 100, 100) / (grade * 100);
    expect(perMetre(HILL_STEEP_GRADE * 2) / perMetre(HILL_STEEP_GRADE)).toBeCloseTo(5 / 2, 5);
    expect(perMetre(0.02)).toBeLessThan(perMetre(0.05));
    expect(perMetre(0.15)).toBeGreaterThan(3 * perMetre(0.02));
  });

  it('only ever adds to an edge\'s cost, and adds to every edge that climbs', () => {
    const network = realGraph('sf-bay').network;
    const graph = network.graph;
    for (const supersafe of [true, false]) {
      const flat = createCosting(network, { profile: 'cycling', supersafe, night: false, departureMinute });
      const hills = createCosting(network, { profile: 'cycling', supersafe, night: false, departureMinute, avoidHills: true });
      let climbing = 0;
      for (let edge = 0; edge < graph.edgeCount; edge++) {
        const [a, b] = [flat.leastEdgeCost(edge), hills.leastEdgeCost(edge)];
        if (a === Infinity) {
          expect(b).toBe(Infinity);
          continue;
        }
        expect(b).toBeGreaterThanOrEqual(a);
        const segment = graph.edgeSegment[edge]!;
        const up = graph.edgeFlags[edge]! & EDGE_REVERSED ? graph.segmentDescent[segment]! : graph.segmentAscent[segment]!;
        if (up > 0) {
          climbing++;
          expect(b).toBeGreaterThan(a);
        } else expect(b).toBe(a);
      }
      expect(climbing).toBeGreaterThan(graph.edgeCount / 4);
      expect(hills.metric).toBe(flat.metric);
    }
  });

  it('leaves the landmark bounds, computed without it, admissible: A* with it finds what a plain Dijkstra finds', () => {
    const loaded = realGraph('sf-bay');
    const network = loaded.network;
    const random = seededRandom(515);
    const stored = storedLandmarks(network.graph)!;
    const plain = new SearchWorkspace(network.graph.edgeCount);
    let compared = 0;
    for (let attempt = 0; compared < 40 && attempt < 400; attempt++) {
      const costing = createCosting(network, { profile: 'cycling', supersafe: attempt % 2 === 0, night: false, departureMinute, avoidHills: true });
      const usable = (edge: number) => costing.usable(edge);
      const point = (): LonLat => {
        const node = Math.floor(random() * network.graph.nodeCount);
        return [network.nodeLon(node), network.nodeLat(node)];
      };
      const from = snap(network, usable, point());
      const to = snap(network, usable, point());
      if (!from || !to) continue;
      const sources = positionsAt(network, usable, from);
      const targets = positionsAt(network, usable, to);
      const found = findRoute(costing, loaded.workspace, sources, targets, to.location);
      const expected = referenceCost(costing, sources, targets);
      if (expected === Infinity) {
        expect(found).toBeNull();
        continue;
      }
      expect(found!.cost).toBeCloseTo(expected, 6);
      // The bound from the first source never exceeds the exact cost still to come.
      const exact = findRoute(costing, plain, [{ edge: sources[0]!.edge, fraction: 1 }], targets, to.location);
      if (exact) {
        const head = network.graph.edgeHead[sources[0]!.edge]!;
        const bound = new LandmarkBound(stored[costing.metric]!, targets.map((t) => network.graph.edgeTail[t.edge]!), [head]).remaining(sources[0]!.edge, head, 0);
        expect(bound).toBeLessThanOrEqual(exact.cost + 1e-9);
      }
      compared++;
    }
    expect(compared).toBe(40);
  });
});

describe('climbs elsewhere', () => {
  it('New York: from Brooklyn Bridge Park up to Brooklyn Heights and Downtown Brooklyn', () => {
    const route = planHillRoute(hillContext('new-york'), [[-73.9967, 40.7022], [-73.9903, 40.6932]], { supersafe: true, avoidHills: false })!;
    expect(route.body.elevation_gain).toBeGreaterThan(10);
    expect(route.body.elevation_gain).toBeGreaterThan(route.body.elevation_loss);
    expect(route.profile![0]![1]).toBeLessThan(route.profile!.at(-1)![1]!);
  });

  it('London: from Friern Barnet up Colney Hatch Lane towards Muswell Hill', () => {
    const route = planHillRoute(hillContext('london'), [[-0.146, 51.615], [-0.147, 51.599]], { supersafe: true, avoidHills: false })!;
    expect(route.body.elevation_gain).toBeGreaterThan(20);
    expect(route.profile!.every(([, height]) => height !== null && height > 30 && height < 150)).toBe(true);
  });

  it('Los Angeles, where no model reaches: flat, and no profile', () => {
    const route = planHillRoute(hillContext('los-angeles'), [[-118.4426, 34.0739], [-118.434, 34.0622]], { supersafe: true, avoidHills: true })!;
    expect(route.body.elevation_gain).toBe(0);
    expect(route.body.elevation_loss).toBe(0);
    expect(route.body.steps.every((step) => step.delta_elevation === 0)).toBe(true);
    expect(route.profile).toBeNull();
  });
});
