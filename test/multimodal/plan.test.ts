import { describe, expect, it, vi } from 'vitest';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { CYCLING_SPEED_MPS, EBIKE_SPEED_MPS, WALKING_SPEED_MPS } from '../../core/routing/costing/speeds.ts';
import type { BikeShareSnapshot } from '../../functions/bikeshare/model.ts';
import type { CustomRouteItem } from '../../functions/customroutes/records.ts';
import type { Destination } from '../../functions/events/model.ts';
import { planMultiModal, SLOWEST_ALTERNATIVE_FACTOR } from '../../functions/multimodal/plan.ts';
import type { MultiModalBody, MultiModalOption, OptionLeg } from '../../functions/multimodal/response.ts';
import { compileParkingDatasets } from '../../functions/multimodal/parking/datasets.ts';
import { SpotIndex } from '../../functions/multimodal/parking/spots.ts';
import { multiModalRequest } from '../../functions/multimodal/request.ts';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import { DEMO_CUSTOM_ROUTES } from '../../lib/local/custom-route-seeds.ts';
import { FIXED_NOW } from '../support/clock.ts';
import { recordedSnapshot } from '../support/bikeshare.ts';
import { memorySources } from '../support/multimodal.ts';
import { directionsRoute, divvyPricingPlans, handMadeSystem, NOON, plan, station } from '../support/multimodal-plan.ts';
import { handMadeBays, PLACES } from '../support/parking.ts';

/**
 * Every rule of spec 4.2, planned in process by the code the endpoint runs, on the real city
 * graphs and the recorded bike-share feeds (Santander Cycles, Citi Bike, Bay Wheels), with
 * hand-made systems, bays, custom routes and reports where the recordings have none.
 */

const reports = vi.hoisted(() => ({ items: [] as AvoidanceItem[] }));
vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal, () => reports.items));

const bloomsbury = { start: [-0.1337, 51.5246], end: [-0.1246, 51.5219] } as const;
const manhattan = { start: [-74.006, 40.7128], end: [-73.9899, 40.6955] } as const;
const santander = recordedSnapshot('santander-cycles');
const citiBike = recordedSnapshot('citi-bike');
const bayWheels = recordedSnapshot('bay-wheels');
const parking = compileParkingDatasets(sharedDataPath(), ['london', 'new-york', 'sf-bay']);
const recorded = async (extra: { systems?: BikeShareSnapshot[]; routes?: CustomRouteItem[]; destinations?: Destination[] } = {}) =>
  memorySources({ systems: extra.systems ?? [santander, citiBike, bayWheels], spots: [...(await parking), handMadeBays()], routes: extra.routes, destinations: extra.destinations });

const types = (body: MultiModalBody) => body.options.map((option) => option.type);
const cycling = (option: MultiModalOption) => option.legs.filter((leg) => leg.mode === 'cycling');
const pushedMetres = (leg: OptionLeg) => leg.steps.filter((step) => step.mode === 'walking').reduce((sum, step) => sum + step.distance, 0);
const stationAt = (snapshot: BikeShareSnapshot, id: string): LonLat => {
  const found = snapshot.stations.find((candidate) => candidate.station_id === id)!;
  return [found.lon, found.lat];
};
const last = <T>(items: readonly T[]): T => items[items.length - 1]!;

describe('option types and their order (rules 1, 2, 4)', () => {
  it('gives Personal supersafe, Personal direct, docked, docked e-bike, in that order', async () => {
    const body = await plan(bloomsbury, await recorded());
    expect(types(body)).toEqual(['personal', 'personal', 'docked', 'docked_ebike']);
    expect(body.options.map((option) => option.supersafe)).toEqual([true, false, true, true]);
    expect(body.options.map((option) => option.name)).toEqual(['Personal bike', 'Personal bike', 'Santander Cycles', 'Santander Cycles E-bike']);
    expect(body.options.map((option) => option.is_electric)).toEqual([false, false, false, true]);
    expect(body.search_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.graph_version).toMatch(/^london-/);
  });

  it('plans each Personal variant as /directions/v2/ plans it', async () => {
    const body = await plan(bloomsbury, await recorded());
    for (const [option, supersafe] of [[body.options[0]!, true], [body.options[1]!, false]] as const) {
      const route = (await directionsRoute([bloomsbury.start, bloomsbury.end], { supersafe }))!;
      expect(option.legs).toHaveLength(1);
      expect(option.legs[0]!.geometry).toEqual(route.geometry);
      expect(option.legs[0]!.steps).toEqual(route.steps);
      expect(option.duration).toBe(route.duration);
      expect(option.legs[0]).toMatchObject({ mode: 'cycling', bike_type: 'personal', end_kind: 'destination', end_label: 'Destination', reroutable: true });
    }
  });

  it('gives the Personal option once when supersafe and direct are the same route', async () => {
    // City Hall to the West Village: both costings ride the same streets.
    const sameRoute = { start: [-74.0094, 40.711], end: [-73.9973, 40.7298] } as const;
    const body = await plan(sameRoute, await recorded());
    const [safe, direct] = await Promise.all([directionsRoute([sameRoute.start, sameRoute.end], { supersafe: true }), directionsRoute([sameRoute.start, sameRoute.end], { supersafe: false })]);
    expect(safe!.geometry).toEqual(direct!.geometry);
    expect(types(body).filter((type) => type === 'personal')).toHaveLength(1);
    expect(body.options[0]).toMatchObject({ type: 'personal', supersafe: true, same_as_direct: true });
    expect(types(body)).toEqual(['personal', 'docked', 'docked_ebike']);
  });

  it('ends every leg with its own arrive step, with voice and banner instructions per leg (rule 8)', async () => {
    for (const trip of [bloomsbury, manhattan]) {
      for (const option of (await plan(trip, await recorded())).options) {
        for (const leg of option.legs) {
          expect(leg.steps[0]!.maneuver.type).toBe('Start');
          expect(last(leg.steps).maneuver).toMatchObject({ type: 'Arrive', instruction: 'Arrive at destination' });
          expect(last(leg.steps).voice_instructions).toEqual([]);
          // The leg's own cues: it opens with the depart sentence and each step shows what comes next.
          expect(leg.steps[0]!.voice_instructions.length).toBeGreaterThan(0);
          for (const step of leg.steps.slice(0, -1)) expect(step.banner_instructions.length).toBeGreaterThan(0);
          expect(last(leg.steps[leg.steps.length - 2]!.voice_instructions).announcement).toMatch(/arrive/i);
          expect(Math.abs(leg.steps.reduce((sum, step) => sum + step.distance, 0) - leg.distance)).toBeLessThan(1);
          if (leg.mode === 'walking') expect(leg.steps.every((step) => step.mode === 'walking')).toBe(true);
        }
        expect(option.distance).toBeCloseTo(option.legs.reduce((sum, leg) => sum + leg.distance, 0), 0);
        expect(option.duration).toBeCloseTo(option.legs.reduce((sum, leg) => sum + leg.duration, 0), 0);
      }
    }
  });
});

describe('docked bike share (rules 4, speeds)', () => {
  it('walks to the nearest station with a bike, rides to the nearest with a free dock, walks to the end', async () => {
    const body = await plan(bloomsbury, await recorded());
    const docked = body.options.find((option) => option.type === 'docked')!;
    const pickup = docked.pickup_station!;
    const dropoff = docked.dropoff_station!;
    expect(docked.legs.map((leg) => [leg.mode, leg.bike_type, leg.end_kind, leg.end_label])).toEqual([
      ['walking', null, 'pickup', pickup.name],
      ['cycling', 'docked', 'dropoff', dropoff.name],
      ['walking', null, 'destination', 'Destination'],
    ]);
    const within = (at: readonly [number, number], station: { location: [number, number] }) => haversineMetres(at[0], at[1], station.location[0], station.location[1]);
    expect(within(bloomsbury.start, pickup)).toBeLessThanOrEqual(1_500);
    expect(within(bloomsbury.end, dropoff)).toBeLessThanOrEqual(1_500);
    // The nearest stations that qualify (a plain scan of the recording).
    const nearest = (at: readonly [number, number], ok: (s: (typeof santander.stations)[number]) => boolean) =>
      santander.stations.filter(ok).sort((a, b) => haversineMetres(at[0], at[1], a.lon, a.lat) - haversineMetres(at[0], at[1], b.lon, b.lat))[0]!;
    expect(pickup.station_id).toBe(nearest(bloomsbury.start, (s) => s.is_installed && s.is_renting && s.num_bikes_available - (s.num_ebikes_available ?? 0) > 0).station_id);
    expect(dropoff.station_id).toBe(nearest(bloomsbury.end, (s) => s.is_installed && s.is_returning && s.num_docks_available > 0).station_id);
    // Each leg is what directions answers for its two ends: walking, then supersafe cycling.
    const pickupAt = stationAt(santander, pickup.station_id);
    const dropoffAt = stationAt(santander, dropoff.station_id);
    expect(docked.legs[0]!.geometry).toEqual((await directionsRoute([bloomsbury.start, pickupAt], { profile: 'walking' }))!.geometry);
    expect(docked.legs[1]!.geometry).toEqual((await directionsRoute([pickupAt, dropoffAt]))!.geometry);
    expect(docked.legs[2]!.geometry).toEqual((await directionsRoute([dropoffAt, bloomsbury.end], { profile: 'walking' }))!.geometry);
  });

  it('skips a pickup station with no bikes, one that is not renting, and a drop-off with no free dock', async () => {
    const first = (await plan(bloomsbury, await recorded())).options.find((option) => option.type === 'docked')!;
    const emptied = structuredClone(santander);
    const pickup = emptied.stations.find((candidate) => candidate.station_id === first.pickup_station!.station_id)!;
    Object.assign(pickup, { num_bikes_available: 0, num_ebikes_available: 0 });
    const full = emptied.stations.find((candidate) => candidate.station_id === first.dropoff_station!.station_id)!;
    full.num_docks_available = 0;
    const again = (await plan(bloomsbury, await recorded({ systems: [emptied] }))).options.find((option) => option.type === 'docked')!;
    expect(again.pickup_station!.station_id).not.toBe(pickup.station_id);
    expect(again.dropoff_station!.station_id).not.toBe(full.station_id);
    expect(again.pickup_station!.num_bikes_available).toBeGreaterThan(0);
    expect(again.dropoff_station!.num_docks_available).toBeGreaterThan(0);

    const locked = structuredClone(santander);
    Object.assign(locked.stations.find((candidate) => candidate.station_id === first.pickup_station!.station_id)!, { is_renting: false });
    const unlocked = (await plan(bloomsbury, await recorded({ systems: [locked] }))).options.find((option) => option.type === 'docked')!;
    expect(unlocked.pickup_station!.station_id).not.toBe(first.pickup_station!.station_id);
  });

  it('is omitted when pickup and drop-off are the same station, or no station is within 1,500 m', async () => {
    const between: LonLat = [(bloomsbury.start[0] + bloomsbury.end[0]) / 2, (bloomsbury.start[1] + bloomsbury.end[1]) / 2];
    const one = handMadeSystem({ city: 'london', id: 'one', brand: 'One Station', stations: [station('only', between)] });
    expect(types(await plan(bloomsbury, await recorded({ systems: [one] })))).toEqual(['personal', 'personal']);
    const far = handMadeSystem({ city: 'london', id: 'far', brand: 'Far Away', stations: [station('a', [-0.16, 51.5246]), station('b', [-0.10, 51.5219])] });
    expect(types(await plan(bloomsbury, await recorded({ systems: [far] })))).toEqual(['personal', 'personal']);
  });

  it('rides docked e-bikes from the nearest station with an e-bike, at 22 km/h', async () => {
    const body = await plan(bloomsbury, await recorded());
    const ebike = body.options.find((option) => option.type === 'docked_ebike')!;
    expect(ebike).toMatchObject({ is_electric: true, name: 'Santander Cycles E-bike', supersafe: true });
    expect(ebike.pickup_station!.num_ebikes_available).toBeGreaterThan(0);
    const [ride] = cycling(ebike);
    expect(ride!.bike_type).toBe('docked_ebike');
    const pushed = pushedMetres(ride!);
    expect(ride!.duration).toBeCloseTo((ride!.distance - pushed) / EBIKE_SPEED_MPS + pushed / WALKING_SPEED_MPS, -1);
    const classic = cycling(body.options.find((option) => option.type === 'docked')!)[0]!;
    expect(classic.duration).toBeCloseTo((classic.distance - pushedMetres(classic)) / CYCLING_SPEED_MPS + pushedMetres(classic) / WALKING_SPEED_MPS, -1);
    for (const leg of ebike.legs.filter((candidate) => candidate.mode === 'walking')) expect(leg.duration).toBeCloseTo(leg.distance / WALKING_SPEED_MPS, -1);
  });

  it('names the pricing plan and the rental link from the system\'s feeds', async () => {
    const nyc = (await plan(manhattan, await recorded())).options.find((option) => option.type === 'docked')!;
    const pickup = citiBike.stations.find((candidate) => candidate.station_id === nyc.pickup_station!.station_id)!;
    expect(nyc.rental_link).toEqual(pickup.rental_uris);
    expect(nyc.rental_link!.ios).toMatch(/^https:\/\//);
    // No pricing feed was recorded for Citi Bike; a system that publishes one has its plans named.
    expect(nyc.pricing_plan).toBeNull();
    const priced = { ...structuredClone(santander), pricing_plans: divvyPricingPlans() };
    const options = (await plan(bloomsbury, await recorded({ systems: [priced] }))).options;
    expect(options.find((option) => option.type === 'docked')!.pricing_plan!.plan_id).toBe('BIKE_SINGLE_RIDE');
    expect(options.find((option) => option.type === 'docked_ebike')!.pricing_plan!.plan_id).toBe('EBIKE_SINGLE_RIDE');
  });
});

describe('slow alternatives (rule 3)', () => {
  it('leaves out alternatives more than 3 times slower than the Personal option', async () => {
    // West Oakland: Bay Wheels' nearest stations are 883 m and 522 m from the two ends.
    const trip = { start: [-122.3041, 37.8078], end: [-122.2972, 37.8118] } as const;
    const body = await plan(trip, await recorded());
    expect(types(body)).toEqual(['personal']);
    const [pickup, dropoff] = [[-122.29481, 37.80474], [-122.29895, 37.8102]] as LonLat[];
    const walks = [(await directionsRoute([trip.start, pickup!], { profile: 'walking' }))!, (await directionsRoute([dropoff!, trip.end], { profile: 'walking' }))!];
    expect(walks.reduce((sum, walk) => sum + walk.duration, 0)).toBeGreaterThan(SLOWEST_ALTERNATIVE_FACTOR * body.options[0]!.duration);
    for (const candidate of [bloomsbury, manhattan]) {
      const options = (await plan(candidate, await recorded())).options;
      for (const option of options) expect(option.duration).toBeLessThanOrEqual(SLOWEST_ALTERNATIVE_FACTOR * options[0]!.duration);
    }
  });

  it('answers the Personal options when bike share cannot be read', async () => {
    const sources = await recorded();
    const body = await plan(bloomsbury, { ...sources, bikeShare: async () => Promise.reject(new Error('S3 is down')) });
    expect(types(body)).toEqual(['personal', 'personal']);
  });

  it('answers no options, not an error, where nothing can be planned', async () => {
    // Heathrow is in London but outside the loaded extracts.
    const body = await plan({ start: bloomsbury.start, end: [-0.4543, 51.47] }, await recorded());
    expect(body.options).toEqual([]);
    const cross = await planMultiModal(multiModalRequest.parse({ start: bloomsbury.start, end: manhattan.end }), FIXED_NOW, await recorded());
    expect(cross.kind).toBe('cross-city');
  });
});

describe('stops (rule 6)', () => {
  const stops = [[-0.1300, 51.5240], [-0.1270, 51.5228]];

  it('rides one leg per hop, each equal to a plain request for its pair, labelled Stop 1, Stop 2, in the request\'s language', async () => {
    const body = await plan({ ...bloomsbury, stops }, await recorded());
    expect(new Set(types(body))).toEqual(new Set(['personal']));
    const points = [bloomsbury.start, ...stops, bloomsbury.end];
    for (const option of body.options) {
      expect(option.legs.map((leg) => [leg.end_kind, leg.end_label])).toEqual([['stop', 'Stop 1'], ['stop', 'Stop 2'], ['destination', 'Destination']]);
      for (const [index, leg] of option.legs.entries()) {
        const alone = await plan({ start: points[index], end: points[index + 1] }, await recorded({ systems: [] }));
        const same = alone.options.find((candidate) => candidate.supersafe === option.supersafe) ?? alone.options[0]!;
        expect(leg.geometry).toEqual(same.legs[0]!.geometry);
        expect(leg.steps).toEqual(same.legs[0]!.steps);
      }
    }
    const spanish = await plan({ ...bloomsbury, stops, language: 'es-MX' }, await recorded());
    expect(spanish.options[0]!.legs.map((leg) => leg.end_label)).toEqual(['Parada 1', 'Parada 2', 'Destino']);
    expect(spanish.options[0]!.name).toBe('Bici propia');
    expect(last(spanish.options[0]!.legs[0]!.steps).maneuver.instruction).toBe('Llega a tu destino');
  });

  it('applies parking_type to the final hop only', async () => {
    const body = await plan({ ...bloomsbury, stops, parking_type: 'regular' }, await recorded());
    expect(body.options[0]!.legs.map((leg) => [leg.mode, leg.end_kind])).toEqual([
      ['cycling', 'stop'],
      ['cycling', 'stop'],
      ['cycling', 'parking'],
      ['walking', 'destination'],
    ]);
  });
});

describe('parking (rule 7) and destination_parking', () => {
  const camdenTrip = { start: bloomsbury.start, end: PLACES.camden };

  it('regular: cycles to the nearest stand within 1,500 m, "Park bike", and walks the rest', async () => {
    const body = await plan({ ...camdenTrip, parking_type: 'regular' }, await recorded());
    const stands = new SpotIndex((await parking).find((dataset) => dataset.city === 'london')!);
    const nearest = stands.near(PLACES.camden, 1_500, { limit: 1 })[0]!;
    for (const option of body.options.filter((candidate) => candidate.type === 'personal')) {
      expect(option.parking).toMatchObject({ kind: 'cycle_stand', id: nearest.spot.id, location: [nearest.spot.lon, nearest.spot.lat] });
      expect(option.legs.map((leg) => [leg.mode, leg.bike_type, leg.end_kind, leg.end_label])).toEqual([
        ['cycling', 'personal', 'parking', 'Park bike'],
        ['walking', null, 'destination', 'Destination'],
      ]);
    }
    // Other option types are unaffected.
    for (const option of body.options.filter((candidate) => candidate.type !== 'personal')) expect(option.parking).toBeNull();
    const spanish = await plan({ ...camdenTrip, parking_type: 'regular', language: 'es' }, await recorded());
    expect(spanish.options[0]!.legs[0]!.end_label).toBe('Aparca la bici');
  });

  it('regular: a city rack in New York; nothing in Los Angeles, so the option stays direct', async () => {
    const nyc = await plan({ ...manhattan, parking_type: 'regular' }, await recorded());
    expect(nyc.options[0]!.parking!.kind).toBe('city_rack');
    expect(nyc.destination_parking).toBeNull();
    const la = await plan({ start: [-118.4426, 34.0739], end: [-118.434, 34.0622], parking_type: 'regular' }, await recorded());
    expect(la.options[0]!.parking).toBeNull();
    expect(la.options[0]!.legs.map((leg) => leg.end_kind)).toEqual(['destination']);
  });

  it('ebike: the nearest bay where the borough mandates bays; direct where it does not', async () => {
    const camden = await plan({ ...camdenTrip, parking_type: 'ebike' }, await recorded());
    expect(camden.options[0]!.parking).toMatchObject({ kind: 'ebike_bay', id: 'camden-1' });
    expect(camden.destination_parking).toEqual({ area_name: 'Camden', gss_code: 'E09000007', ebike_parking_rule: 'bay_mandatory' });
    const southwark = await plan({ start: PLACES.southwarkStart, end: PLACES.southwark, parking_type: 'ebike' }, await recorded());
    expect(southwark.options[0]!.parking).toBeNull();
    expect(southwark.destination_parking).toMatchObject({ area_name: 'Southwark', ebike_parking_rule: 'free_floating' });
  });

  it('ebike with an operator that does not serve the destination\'s borough: ends at its nearest bay and walks, covered false', async () => {
    const body = await plan({ start: PLACES.southwarkStart, end: PLACES.southwark, parking_type: 'ebike', operator: 'forest' }, await recorded());
    expect(body.destination_parking).toEqual({ area_name: 'Southwark', gss_code: 'E09000028', ebike_parking_rule: 'free_floating', operator: 'forest', covered: false });
    const personal = body.options[0]!;
    expect(personal.parking).toMatchObject({ kind: 'ebike_bay', id: 'lambeth-1' });
    expect(personal.legs.map((leg) => [leg.mode, leg.end_kind])).toEqual([['cycling', 'parking'], ['walking', 'destination']]);
    const covered = await plan({ start: PLACES.southwarkStart, end: PLACES.southwark, parking_type: 'ebike', operator: 'lime' }, await recorded());
    expect(covered.destination_parking).toMatchObject({ operator: 'lime', covered: true });
    expect(covered.options[0]!.parking).toBeNull();
  });

  it('sets destination_parking whatever parking_type is, and only inside a London borough', async () => {
    expect((await plan(bloomsbury, await recorded())).destination_parking).toMatchObject({ area_name: 'Camden' });
    expect((await plan(manhattan, await recorded())).destination_parking).toBeNull();
  });
});

describe('custom routes (rule 5)', () => {
  it('has a demo route in every city whose points its city graph joins (npm start seeds each), San Francisco\'s over its hills', async () => {
    expect(new Set(DEMO_CUSTOM_ROUTES.map((seed) => seed.city)).size).toBe(DEMO_CUSTOM_ROUTES.length);
    for (const seed of DEMO_CUSTOM_ROUTES) {
      const points = [seed.route.start, ...(seed.route.stops ?? []), seed.route.end].map((stop) => stop.location);
      let climb = 0;
      for (let index = 1; index < points.length; index++) {
        const route = await directionsRoute([points[index - 1]!, points[index]!]);
        expect(route, `${seed.city} ${index}`).not.toBeNull();
        climb += route!.elevation_gain;
      }
      // Nob Hill rises about 60 m above Union Square.
      if (seed.city === 'sf-bay') expect(climb).toBeGreaterThan(40);
    }
  });

  const seed = DEMO_CUSTOM_ROUTES.find((candidate) => candidate.city === 'london')!;
  const route: CustomRouteItem = {
    route_id: seed.id,
    name: seed.route.name,
    city: 'london',
    start: seed.route.start as CustomRouteItem['start'],
    stops: seed.route.stops as CustomRouteItem['stops'],
    end: seed.route.end as CustomRouteItem['end'],
    legs: [],
    distance: 0,
    duration: 0,
    created_by: 'test',
    created_at: '2026-06-01T00:00:00Z',
    updated_at: '2026-06-01T00:00:00Z',
  };
  const stopNames = [...route.stops, route.end].map((stop) => stop.name);

  it('rides to the route\'s start, then one non-reroutable leg per stop, each arriving at its stop by name', async () => {
    const body = await plan({ ...bloomsbury, event_id: route.route_id, parking_type: 'regular' }, await recorded({ routes: [route] }));
    const personal = body.options[0]!;
    expect(personal.legs.map((leg) => [leg.end_kind, leg.end_label, leg.reroutable])).toEqual([
      ['route_start', route.name, true],
      ...stopNames.map((name) => ['route_stop', name, false]),
    ]);
    for (const [index, leg] of personal.legs.slice(1).entries()) expect(last(leg.steps).name).toBe(stopNames[index]);
    // The route's legs are its own, as directions plans them between its points, whichever variant.
    const points = [route.start, ...route.stops, route.end].map((stop) => stop.location);
    for (const [index, leg] of personal.legs.slice(1).entries()) {
      expect(leg.geometry).toEqual((await directionsRoute([points[index]!, points[index + 1]!]))!.geometry);
    }
    expect(personal.event).toMatchObject({ id: route.route_id, name: route.name, stops: route.stops.map((stop) => ({ name: stop.name })) });
    expect(personal.event!.distance).toBeCloseTo(personal.legs.slice(1).reduce((sum, leg) => sum + leg.distance, 0), 0);
    // parking_type is ignored with a custom route.
    expect(personal.parking).toBeNull();
    for (const option of body.options) expect(option.event!.id).toBe(route.route_id);
    expect(body.metadata.custom_route).toBe(route.route_id);
  });

  it('returns a docked bike at the station nearest the route\'s end, then walks to it', async () => {
    const body = await plan({ ...bloomsbury, event_id: route.route_id }, await recorded({ routes: [route] }));
    const docked = body.options.find((option) => option.type === 'docked');
    if (!docked) throw new Error('no docked option');
    const dropoff = docked.dropoff_station!;
    const nearestToEnd = santander.stations
      .filter((s) => s.is_installed && s.is_returning && s.num_docks_available > 0)
      .sort((a, b) => haversineMetres(route.end.location[0], route.end.location[1], a.lon, a.lat) - haversineMetres(route.end.location[0], route.end.location[1], b.lon, b.lat))[0]!;
    expect(dropoff.station_id).toBe(nearestToEnd.station_id);
    expect(docked.legs.map((leg) => leg.end_kind)).toEqual(['pickup', 'route_start', 'route_stop', 'route_stop', 'route_stop', 'dropoff', 'destination']);
    const arrival = last(last(docked.legs).geometry.coordinates);
    expect(haversineMetres(arrival[0], arrival[1], route.end.location[0], route.end.location[1])).toBeLessThan(30);
    expect(body.destination.location).toEqual(route.end.location);
  });

  it('plans without the route when event_id does not resolve', async () => {
    const body = await plan({ ...bloomsbury, event_id: '00000000-0000-4000-8000-000000000000' }, await recorded());
    expect(body.options[0]!.event).toBeNull();
    expect(body.options[0]!.legs.map((leg) => leg.end_kind)).toEqual(['destination']);
  });
});

describe('destination and labels', () => {
  it('enriches the destination from destination_id, and uses the display name when none is given', async () => {
    const destination: Destination = { id: 7, name: 'Russell Square', latitude: 51.5219, longitude: -0.1246, area_name: 'Bloomsbury', city: 'London', categories: [] };
    const body = await plan({ ...bloomsbury, destination_id: 7, start_name: 'Home' }, await recorded({ destinations: [destination] }));
    expect(body.destination).toMatchObject({ name: 'Russell Square', details: destination });
    expect(body.origin.name).toBe('Home');
    expect(last(body.options[0]!.legs).end_label).toBe('Russell Square');
    // The display name is used when no destination_id names the destination (or it does not resolve).
    const both = await plan({ ...bloomsbury, destination_id: 7, end_name: 'The office' }, await recorded({ destinations: [destination] }));
    expect(last(both.options[0]!.legs).end_label).toBe('Russell Square');
    for (const body of [{ ...bloomsbury, end_name: 'The office' }, { ...bloomsbury, destination_id: 8, end_name: 'The office' }]) {
      const named = await plan(body, await recorded({ destinations: [destination] }));
      expect(last(named.options[0]!.legs).end_label).toBe('The office');
      expect(named.destination).toMatchObject({ name: 'The office', details: null });
    }
  });
});

describe('disruptions per option', () => {
  it('lists the graph\'s disruptions as directions does, and accepted reports near each option\'s cycling legs', async () => {
    const first = await plan(bloomsbury, await recorded());
    const docked = first.options.find((option) => option.type === 'docked')!;
    const ride = cycling(docked)[0]!;
    const middle = ride.geometry.coordinates[Math.floor(ride.geometry.coordinates.length / 2)]!;
    reports.items = [
      {
        city: 'london',
        report_id: 'r-hazard',
        effect: 'unsafe',
        issue_type: 'road_unsafe',
        issue_subtype: 'pothole',
        location: middle,
        way_id: null,
        road_name: null,
        until: null,
        accepted_at: '2026-06-01T09:00:00Z',
      },
    ];
    try {
      const body = await plan(bloomsbury, await recorded());
      const reported = body.options.find((option) => option.type === 'docked')!;
      expect(reported.disruptions).toContainEqual(expect.objectContaining({ id: 'report-r-hazard', source: 'report', type: 'hazard' }));
      for (const option of body.options.filter((candidate) => candidate.type === 'personal')) {
        const route = (await directionsRoute([bloomsbury.start, bloomsbury.end], { supersafe: option.supersafe }))!;
        const outcome = await (await import('../../functions/directions/directions.ts')).planDirections(
          (await import('../../functions/directions/request.ts')).directionsRequest.parse({ coordinates: [bloomsbury.start, bloomsbury.end], supersafe: option.supersafe, departure_time: NOON }),
        );
        expect(option.legs[0]!.geometry).toEqual(route.geometry);
        expect(option.disruptions).toEqual(outcome.kind === 'routed' ? (outcome.body.disruptions ?? []) : []);
      }
    } finally {
      reports.items = [];
    }
  });
});
