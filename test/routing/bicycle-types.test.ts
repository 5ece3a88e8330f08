import { describe, expect, it } from 'vitest';
import { cityIds, type CityId } from '../../core/cities/index.ts';
import { localMinutes } from '../../core/local-time.ts';
import { EDGE_CYCLING, NODE_BARRIER_NARROW, SEGMENT_COBBLES, SEGMENT_ROUGH, SEGMENT_UNPAVED } from '../../core/graph/flags.ts';
import { BICYCLE_TYPE_PROFILES, BICYCLE_TYPES, ridingSpeed, type BicycleType } from '../../core/routing/costing/bicycle-types.ts';
import { TURN_FORBIDDEN } from '../../core/routing/costing/cost-tables.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { costingFor } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import { noRouteMessage } from '../../functions/directions/no-route.ts';
import { directionsBody, routePreferencesOf } from '../../functions/directions/request.ts';
import { typedPairs, typeFeatures, type TypedPair } from '../bench/bicycle-types.ts';
import { benchContext } from '../bench/route-quality.ts';
import { realGraph, seededRandom } from './real-graphs.ts';
import { expectSearchMatchesReference } from './reference-search.ts';

/**
 * The bicycle types (core/routing/costing/bicycle-types.ts) on the real graphs: `hybrid` is the
 * spec's costing unchanged; every type's search is exact against a plain Dijkstra although the
 * bounds it uses were computed for hybrid; on seeded pairs (seeds other than the benchmark's) a
 * cargo route crosses no steps and no barrier or way too narrow for it, a road route crosses no
 * unpaved way where a paved route at most 1.3 times as long exists, and durations follow each
 * type's speeds.
 */

const departureMinute = localMinutes(2026, 6, 15, 8, 30);
const typeIndex = (type: BicycleType): number => BICYCLE_TYPES.indexOf(type);
const OTHER_TYPES = BICYCLE_TYPES.filter((type) => type !== 'hybrid');

/** Seeded pairs per city and metric, routed for every type once for the whole file. */
const pairsCache = new Map<string, TypedPair[]>();
function pairsOf(city: CityId, supersafe: boolean): TypedPair[] {
  const key = `${city}:${supersafe}`;
  if (!pairsCache.has(key)) pairsCache.set(key, typedPairs(city, realGraph(city), { count: 40, seed: 31, supersafe }));
  return pairsCache.get(key)!;
}

describe('the speeds by type, surface and grade', () => {
  const kmh = (type: BicycleType, rideFlags: number, ascent: number, descent: number) => ridingSpeed(BICYCLE_TYPE_PROFILES[type], rideFlags, 100, ascent, descent) * 3.6;

  it('keep hybrid at the spec\'s 15 km/h on any surface and grade', () => {
    for (const [flags, ascent, descent] of [[0, 0, 0], [SEGMENT_UNPAVED | SEGMENT_ROUGH, 8, 0], [SEGMENT_COBBLES, 0, 12]] as const) expect(kmh('hybrid', flags, ascent, descent)).toBeCloseTo(15, 9);
  });

  it('slow every other type uphill down to its floor, speed it downhill up to its cap, and slow it on rough ground', () => {
    expect(kmh('road', 0, 0, 0)).toBeCloseTo(18, 9);
    expect(kmh('road', 0, 5, 0)).toBeCloseTo(18 * (1 - 0.06 * 5), 9);
    expect(kmh('road', 0, 25, 0)).toBeCloseTo(18 * 0.35, 9);
    expect(kmh('road', 0, 0, 5)).toBeCloseTo(18 * 1.15, 9);
    expect(kmh('road', 0, 0, 20)).toBeCloseTo(18 * 1.3, 9);
    expect(kmh('road', SEGMENT_UNPAVED, 0, 0)).toBeCloseTo(18 * 0.6, 9);
    // The worst surface decides: rough cobbles ride as rough.
    expect(kmh('cargo', SEGMENT_COBBLES | SEGMENT_ROUGH, 0, 0)).toBeCloseTo(12 * 0.6, 9);
    // An e-bike barely slows uphill and does not speed up downhill (its assistance stops at its speed).
    expect(kmh('ebike', 0, 6, 0)).toBeCloseTo(22 * (1 - 0.015 * 6), 9);
    expect(kmh('ebike', 0, 0, 6)).toBeCloseTo(22, 9);
    // The net grade: a segment that climbs and descends alike is level.
    expect(kmh('mountain', 0, 4, 4)).toBeCloseTo(14, 9);
  });
});

describe('the hybrid bicycle type', () => {
  it('is the spec\'s costing: every edge and turn costs what it costs without a type, under the same bounds', () => {
    const network = realGraph('london').network;
    for (const supersafe of [true, false]) {
      const options = { profile: 'cycling' as const, supersafe, night: false, departureMinute };
      const plain = createCosting(network, options);
      const hybrid = createCosting(network, { ...options, bicycleType: 'hybrid' });
      expect(hybrid.metricShares()).toEqual(plain.metricShares());
      expect(hybrid.minSecondsPerMetre).toBe(plain.minSecondsPerMetre);
      const { edgeCount, edgeHead, firstOut } = network.graph;
      for (let edge = 0; edge < edgeCount; edge += 7) {
        expect(hybrid.edgeCost(edge)).toBe(plain.edgeCost(edge));
        expect(hybrid.ridingSpeedOn(edge)).toBe(plain.ridingSpeedOn(edge));
        const node = edgeHead[edge]!;
        for (let next = firstOut[node]!; next < firstOut[node + 1]!; next++) expect(hybrid.turnCost(edge, next)).toBe(plain.turnCost(edge, next));
      }
    }
  });

  it('plans the same route, to the second, as a request without a type', () => {
    const context = benchContext('new-york', realGraph('new-york'));
    const coordinates: [number, number][] = [[-74.006, 40.7128], [-73.9899, 40.6955]];
    const plan = (bicycleType?: BicycleType) => {
      const path = planWaypoints(costingFor(context, { profile: 'cycling', supersafe: true, night: false, bicycleType }), context, coordinates, { language: 'en' }).legs![0]!.path;
      return JSON.stringify({ coordinates: path.coordinates, duration: path.duration });
    };
    expect(plan('hybrid')).toBe(plan());
    expect(plan('road')).not.toBe(plan());
  });
});

describe('every bicycle type', () => {
  for (const city of cityIds) {
    it(`finds routes of the same cost as a plain Dijkstra in ${city}, bounded by hybrid's bounds scaled down`, () => {
      const loaded = realGraph(city);
      const network = loaded.network;
      const random = seededRandom(city.length * 7919);
      let compared = 0;
      for (let attempt = 0; compared < 12 && attempt < 60; attempt++) {
        const bicycleType = OTHER_TYPES[attempt % OTHER_TYPES.length]!;
        // Both metrics, a grade between them, and the hill preference (which an e-bike weighs less).
        const variant = [{ supersafe: true }, { supersafe: false }, { supersafe: false, safety: 0.5 }, { supersafe: true, avoidHills: true }][(attempt + Math.floor(attempt / 4)) % 4]!;
        const costing = createCosting(network, { profile: 'cycling', night: false, departureMinute, bicycleType, ...variant });
        expect(costing.metricShares().every(({ share }) => share > 0 && share <= 1)).toBe(true);
        if (expectSearchMatchesReference(costing, loaded, random, `${city} ${attempt} ${bicycleType}`)) compared++;
      }
      expect(compared).toBe(12);
    });
  }

  it("costs every turn in its table as its rules do, though the table is made from hybrid's (London, which has narrow barriers)", () => {
    const network = realGraph('london').network;
    const { nodeCount, nodeFlags, firstIn, inEdges, firstOut, edgeFlags } = network.graph;
    let narrowTurns = 0;
    for (const bicycleType of OTHER_TYPES) {
      for (const supersafe of [true, false]) {
        const costing = createCosting(network, { profile: 'cycling', supersafe, night: false, departureMinute, bicycleType });
        const table = costing.turnTable()!;
        let mismatches = 0;
        for (let node = 0; node < nodeCount; node++) {
          for (let i = firstIn[node]!; i < firstIn[node + 1]!; i++) {
            const from = inEdges[i]!;
            if (!(edgeFlags[from]! & network.turnRowFlags)) continue;
            for (let to = firstOut[node]!; to < firstOut[node + 1]!; to++) {
              const entry = table[network.turnBase(from) + to]!;
              const byRules = costing.turnCostByRules(from, to);
              if ((entry === TURN_FORBIDDEN ? Infinity : entry * 0.5) !== byRules) mismatches++;
              if (bicycleType === 'cargo' && nodeFlags[node]! & NODE_BARRIER_NARROW) narrowTurns++;
            }
          }
        }
        expect(mismatches, `${bicycleType} ${supersafe ? 'supersafe' : 'direct'}`).toBe(0);
      }
    }
    // The cargo bike's own entries were checked: turns through narrow barriers, which it never takes.
    expect(narrowTurns).toBeGreaterThan(0);
  });

  it('scales the bounds only where the type can cost less than hybrid: an e-bike\'s share is below 1, a cargo bike\'s is 1', () => {
    const network = realGraph('sf-bay').network;
    const share = (bicycleType: BicycleType) => createCosting(network, { profile: 'cycling', supersafe: false, night: false, departureMinute, bicycleType }).metricShares()[0]!.share;
    expect(share('ebike')).toBeLessThan(15 / 22 + 1e-6);
    expect(share('road')).toBeLessThan(1);
    expect(share('cargo')).toBeCloseTo(1, 5);
  });
});

describe('the cargo bicycle type', () => {
  it.each(cityIds.map((city) => [city]))('never crosses steps, a barrier or a way too narrow for it on seeded %s pairs', (city) => {
    for (const supersafe of [true, false]) {
      for (const pair of pairsOf(city, supersafe)) {
        const cargo = pair.routes[typeIndex('cargo')];
        if (!cargo) continue;
        expect([cargo.steps, cargo.narrowBarriers, cargo.narrowWays]).toEqual([0, 0, 0]);
      }
    }
  });

  it('routes round what hybrid routes cross: steps and narrow barriers on some seeded pairs', () => {
    const crossed = cityIds.flatMap((city) => pairsOf(city, true)).filter((pair) => {
      const hybrid = pair.routes[typeIndex('hybrid')]!;
      return hybrid.steps + hybrid.narrowBarriers > 0 && pair.routes[typeIndex('cargo')] !== null;
    });
    expect(crossed.length).toBeGreaterThan(3);
  });
});

describe('a leg no cargo bike can ride', () => {
  it('answers why: impassable for the bicycle type where a hybrid has a route, in both languages', () => {
    // Seeded pairs where hybrid routes and cargo has none (steps or narrow barriers are the only way).
    const blocked = cityIds.flatMap((city) => pairsOf(city, true).map((pair) => ({ city, pair })))
      .filter(({ pair }) => pair.routes[typeIndex('hybrid')] !== null && pair.routes[typeIndex('cargo')] === null);
    expect(blocked.length).toBeGreaterThan(0);
    for (const { city, pair } of blocked) {
      const context = benchContext(city, realGraph(city));
      const plan = (bicycleType: BicycleType) => planWaypoints(costingFor(context, { profile: 'cycling', supersafe: true, night: false, bicycleType }), context, [pair.from, pair.to], { language: 'en' });
      expect(plan('cargo').noRoute).toEqual({ reason: 'impassable_for_bicycle_type', index: 0 });
      expect(plan('hybrid').legs).not.toBeNull();
    }
    const noRoute = { reason: 'impassable_for_bicycle_type', index: 0 } as const;
    expect(noRouteMessage('en', noRoute)).toContain('a hybrid bicycle would have a route');
    expect(noRouteMessage('es', noRoute)).toContain('una bicicleta híbrida tendría ruta');
  });
});

describe('the road bicycle type', () => {
  it.each(cityIds.map((city) => [city]))('crosses no unpaved way where a paved route at most 1.3 times as long exists, on seeded %s pairs', (city) => {
    const loaded = realGraph(city);
    const context = benchContext(city, loaded);
    const graph = loaded.network.graph;
    // Every unpaved edge, as the no-ride mask of a rented bike: a road route with unpaved ways forbidden.
    const unpaved = new Uint8Array(graph.edgeCount);
    for (let edge = 0; edge < graph.edgeCount; edge++) if (graph.edgeFlags[edge]! & EDGE_CYCLING && graph.segmentRideFlags[graph.edgeSegment[edge]!]! & SEGMENT_UNPAVED) unpaved[edge] = 1;
    let checked = 0;
    for (const supersafe of [true, false]) {
      const pavedOnly = costingFor(context, { profile: 'cycling', supersafe, night: false, bicycleType: 'road', noRide: unpaved });
      for (const pair of pairsOf(city, supersafe)) {
        const road = pair.routes[typeIndex('road')];
        // A coordinate that lies on an unpaved way starts (or ends) the route on it: only the ways between count.
        if (!road || road.unpavedBetweenEnds === 0) continue;
        const paved = planWaypoints(pavedOnly, context, [pair.from, pair.to], { language: 'en' }).legs?.[0]?.path;
        checked++;
        if (paved) expect(typeFeatures(loaded.network, paved).unpaved).toBe(0);
        if (paved) expect(paved.distance, `${city} ${JSON.stringify(pair.from)} ${JSON.stringify(pair.to)}`).toBeGreaterThan(1.3 * road.metres);
      }
    }
    // The pairs where the road route kept an unpaved way, each checked above: few, and none in most cities.
    expect(checked).toBeLessThan(10);
  });

  it('rides fewer unpaved and cobbled metres than hybrid on the seeded pairs', () => {
    const pairs = cityIds.flatMap((city) => [...pairsOf(city, true), ...pairsOf(city, false)]);
    const sum = (type: BicycleType, feature: 'unpaved' | 'cobbles') => pairs.reduce((total, pair) => total + (pair.routes[typeIndex(type)]?.[feature] ?? 0), 0);
    expect(sum('hybrid', 'unpaved')).toBeGreaterThan(0);
    expect(sum('road', 'unpaved')).toBeLessThan(0.5 * sum('hybrid', 'unpaved'));
    expect(sum('road', 'cobbles')).toBeLessThan(0.5 * sum('hybrid', 'cobbles'));
  });
});

describe('durations', () => {
  it.each(cityIds.map((city) => [city]))('follow each type\'s speeds on seeded %s pairs: an e-bike\'s shorter, a road bike\'s shorter, a cargo bike\'s longer than hybrid\'s', (city) => {
    const pairs = pairsOf(city, true);
    for (const pair of pairs) {
      const hybrid = pair.routes[typeIndex('hybrid')]!;
      expect(pair.routes[typeIndex('ebike')]!.duration).toBeLessThan(hybrid.duration);
      // Along the same ways (a cargo route may instead ride round steps hybrid walks up, and be the quicker).
      const cargo = pair.routes[typeIndex('cargo')];
      if (cargo && Math.abs(cargo.metres - hybrid.metres) < 0.01) expect(cargo.duration).toBeGreaterThan(hybrid.duration);
    }
    const total = (type: BicycleType) => pairs.reduce((sum, pair) => sum + (pair.routes[typeIndex(type)]?.duration ?? 0), 0);
    expect(total('road')).toBeLessThan(total('hybrid'));
    expect(total('ebike') / total('hybrid')).toBeLessThan(0.8);
  });
});

describe('the bicycle_type field', () => {
  const body = { coordinates: [[-0.1276, 51.5072], [-0.1, 51.52]] };

  it('takes the five types, hybrid when absent, and reaches the planner\'s preferences', () => {
    for (const type of BICYCLE_TYPES) {
      const parsed = directionsBody.parse({ ...body, bicycle_type: type });
      expect(routePreferencesOf(parsed).bicycleType).toBe(type);
    }
    const absent = directionsBody.parse(body);
    expect(absent.bicycle_type).toBeUndefined();
    expect(routePreferencesOf(absent).bicycleType).toBeUndefined();
  });

  it('refuses any other value, naming the field and the types', () => {
    for (const value of ['tandem', 'Road', 1, true, null]) {
      const result = directionsBody.safeParse({ ...body, bicycle_type: value });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.path).toEqual(['bicycle_type']);
      expect(result.error!.issues[0]!.message).toBe(`must be one of ${BICYCLE_TYPES.join(', ')}`);
    }
  });
});
