import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LonLat } from '../../core/geo.ts';
import { BikeShareView } from '../../functions/bikeshare/loader.ts';
import { explainSupersafe } from '../../functions/explain/explain.ts';
import { explainRequest } from '../../functions/explain/request.ts';
import { planMultiModal } from '../../functions/multimodal/plan.ts';
import { multiModalRequest } from '../../functions/multimodal/request.ts';
import type { PlannerSources } from '../../functions/multimodal/sources.ts';
import type * as metrics from '../../platform/metrics.ts';
import { planDirections } from '../../functions/directions/directions.ts';
import { directionsRequest } from '../../functions/directions/request.ts';
import { FIXED_NOW } from '../support/clock.ts';
import { randomNodeLocation, seededRandom } from './real-graphs.ts';
import { cachedRealGraph } from '../support/real-graph-cache.ts';

/**
 * Directions, explain-supersafe and multi-modal plan a route one way (core/routing/planning/
 * planner.ts): for the same start and end, departure and preferences, the supersafe and direct
 * routes directions answers are the routes explain measures and the legs of multi-modal's Personal
 * options, on the real graphs; and every route any of them plans is recorded in the metrics.
 */

vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));
const recorded = vi.hoisted(() => [] as { name: string; dimensions: Record<string, string> }[]);
vi.mock('../../platform/metrics.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof metrics>();
  return {
    ...actual,
    recordMetric: (name: string, value: number, dimensions: Record<string, string>) => {
      recorded.push({ name, dimensions });
      actual.recordMetric(name as Parameters<typeof actual.recordMetric>[0], value, dimensions as never);
    },
  };
});

const DAY = '2026-06-15T12:00';
const NIGHT = '2026-01-15T23:00';

/** Multi-modal without bike share: its Personal options only, from the graph the other endpoints use. */
const personalOnly: PlannerSources = {
  bikeShare: async () => new BikeShareView([]),
  spots: async () => null,
  customRoute: async () => null,
  destination: async () => null,
};

interface Trip {
  label: string;
  start: LonLat;
  end: LonLat;
  departure: string;
  avoidHills?: boolean;
  /** A random pair may have no route (a node on a way closed at noon, a one-way island). */
  mayBeNull?: boolean;
}

const FIXED_TRIPS: Trip[] = [
  { label: 'Bloomsbury by day', start: [-0.1337, 51.5246], end: [-0.1246, 51.5219], departure: DAY },
  { label: 'Bloomsbury at night', start: [-0.1337, 51.5246], end: [-0.1246, 51.5219], departure: NIGHT },
  { label: 'Lower Manhattan to Brooklyn', start: [-74.006, 40.7128], end: [-73.9899, 40.6955], departure: DAY },
  { label: 'Union Square to Lombard Street, avoiding hills', start: [-122.4075, 37.788], end: [-122.4187, 37.8021], departure: DAY, avoidHills: true },
  { label: 'Union Square to Lombard Street', start: [-122.4075, 37.788], end: [-122.4187, 37.8021], departure: DAY },
];

/** Seeded random pairs of nodes 500 m to 4 km apart in each city, by day. */
function randomTrips(): Trip[] {
  const trips: Trip[] = [];
  for (const city of ['london', 'new-york', 'los-angeles', 'sf-bay'] as const) {
    const network = cachedRealGraph(city).network;
    const random = seededRandom(33);
    let found = 0;
    while (found < 3) {
      const start = randomNodeLocation(network, random);
      const end = randomNodeLocation(network, random);
      const metres = Math.hypot((end[0] - start[0]) * 111_320 * Math.cos((start[1] * Math.PI) / 180), (end[1] - start[1]) * 110_540);
      if (metres < 500 || metres > 4000) continue;
      trips.push({ label: `${city} random ${++found}`, start, end, departure: DAY, mayBeNull: true });
    }
  }
  return trips;
}

async function directionsRoute(trip: Trip, supersafe: boolean) {
  const outcome = await planDirections(directionsRequest.parse({ coordinates: [trip.start, trip.end], departure_time: trip.departure, supersafe, avoid_hills: trip.avoidHills ?? false }), FIXED_NOW);
  if (outcome.kind !== 'routed') throw new Error(`${trip.label}: not routed`);
  return outcome.body;
}

async function explained(trip: Trip) {
  const outcome = await explainSupersafe(explainRequest.parse({ coordinates: [trip.start, trip.end], departure_time: trip.departure, avoid_hills: trip.avoidHills ?? false }), FIXED_NOW);
  if (outcome.kind !== 'explained') throw new Error(`${trip.label}: not explained`);
  return outcome.body;
}

async function multiModal(trip: Trip) {
  const request = multiModalRequest.parse({ start: trip.start, end: trip.end, departure_time: trip.departure, avoid_hills: trip.avoidHills ?? false });
  const outcome = await planMultiModal(request, FIXED_NOW, personalOnly);
  if (outcome.kind !== 'planned') throw new Error(`${trip.label}: not planned`);
  return outcome.body;
}

describe('one way to plan a route', () => {
  it.each([...FIXED_TRIPS, ...randomTrips()])('gives directions\' routes to explain and multi-modal: $label', async (trip) => {
    const [safe, direct] = [await directionsRoute(trip, true), await directionsRoute(trip, false)];
    const explanation = await explained(trip);
    const options = (await multiModal(trip)).options;
    expect(explanation.metadata.nighttime).toBe(safe.metadata.nighttime);
    expect(explanation.metadata.avoid_hills).toBe(safe.metadata.avoid_hills);
    if (!safe.route || !direct.route) {
      expect(trip.mayBeNull, trip.label).toBe(true);
      expect(explanation.figures).toBeNull();
      return;
    }
    for (const [figures, route] of [[explanation.figures!.supersafe, safe.route], [explanation.figures!.direct, direct.route]] as const) {
      expect([figures.distance, figures.duration, figures.climb]).toEqual([route.distance, route.duration, route.elevation_gain]);
    }
    const same = JSON.stringify(safe.route.geometry) === JSON.stringify(direct.route.geometry);
    expect(explanation.same_route).toBe(same);

    // Spec 4.2 rule 1: one Personal option when both variants take the same route.
    const personal = options.filter((option) => option.type === 'personal');
    expect(personal.map((option) => option.supersafe)).toEqual(same ? [true] : [true, false]);
    for (const option of personal) {
      const route = option.supersafe ? safe.route : direct.route;
      expect(option.legs).toHaveLength(1);
      const { mode: _mode, bike_type: _bike, end_kind: _kind, end_label: _label, reroutable: _reroutable, ...leg } = option.legs[0]!;
      expect(leg).toEqual(route);
      expect(option.disruptions).toEqual((option.supersafe ? safe : direct).disruptions ?? []);
    }
  });
});

describe('route metrics', () => {
  beforeEach(() => {
    recorded.length = 0;
  });
  const trip = FIXED_TRIPS[0]!;
  const planned = () => recorded.filter((entry) => entry.name === 'RoutesPlanned').map((entry) => entry.dimensions);
  const london = (costing: string) => ({ City: 'london', Costing: costing });

  it('are recorded for the route directions plans', async () => {
    await directionsRoute(trip, true);
    expect(planned()).toEqual([london('cycling-supersafe')]);
    expect(recorded.filter((entry) => entry.name === 'SearchTime').map((entry) => entry.dimensions)).toEqual([london('cycling-supersafe')]);
  });

  it('are recorded for both routes explain-supersafe plans', async () => {
    await explained(trip);
    expect(planned()).toEqual([london('cycling-supersafe'), london('cycling-direct')]);
    expect(recorded.filter((entry) => entry.name === 'StatesSettled')).toHaveLength(2);
  });

  it('are recorded for every leg a multi-modal option plans', async () => {
    await multiModal(trip);
    expect(planned()).toEqual([london('cycling-supersafe'), london('cycling-direct')]);
  });

  it.each([
    // Heathrow: in London, far from the mapped roads.
    ['outside_coverage', [-0.4543, 51.47]],
    // The City: a London extract no street joins to Bloomsbury's.
    ['not_connected', [-0.09, 51.515]],
  ] as const)('say why a route is null, the reason its answer gives (%s), whichever endpoint planned it', async (reason, end) => {
    const unroutable: Trip = { ...trip, end: [...end] };
    const answer = await directionsRoute(unroutable, true);
    expect(answer.route).toBeNull();
    expect(answer.metadata.no_route_reason).toBe(reason);
    await explained(unroutable);
    await multiModal(unroutable);
    const nulls = recorded.filter((entry) => entry.name === 'RoutesNull');
    // Directions' one route, explain's two, multi-modal's two Personal ones.
    expect(nulls).toEqual(Array(5).fill({ name: 'RoutesNull', dimensions: { City: 'london', Reason: reason } }));
    expect(planned()).toEqual([]);
  });
});
