import { randomUUID } from 'node:crypto';
import { cityForCoordinates } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { roundPosition } from '../../core/routing/planning/leg.ts';
import { BikeShareView, type LoadedSystem } from '../bikeshare/loader.ts';
import { routePoints } from '../customroutes/records.ts';
import { logger } from '../../platform/logger.ts';
import { routingContext } from '../graphs/context-loader.ts';
import { routePlanner } from '../directions/route-planner.ts';
import { NIGHT_SUBLABEL } from '../directions/directions.ts';
import { endLabel } from './labels.ts';
import { dockedOption } from './options/docked.ts';
import { dockedEbikeOption } from './options/docked-ebike.ts';
import { docklessOption } from './options/dockless.ts';
import { personalOptions } from './options/personal.ts';
import { chooseParking, destinationBorough, destinationParkingOf, parkingBody } from './parking/choose.ts';
import type { MultiModalRequest } from './request.ts';
import type { MultiModalOption, MultiModalOutcome } from './response.ts';
import { platformSources, type PlannerSources } from './sources.ts';
import { TripPlanner, type Trip } from './trip.ts';

/**
 * Multi-modal options (spec 4.2) as domain logic: from a validated request to the response body
 * (response.ts). This module orchestrates: it loads what the trip needs (the routing context, a
 * custom route, the destination's details, a parking spot, the city's bike share), asks each
 * option's module (options/: personal, docked, docked e-bike, dockless) for its option, and
 * keeps those the spec admits. docs/multimodal.md describes every option type, field and value.
 */

/** Spec 4.2 rule 3: alternatives slower than this many times the Personal option are left out. */
export const SLOWEST_ALTERNATIVE_FACTOR = 3;

/** The bike-share options, in the order the response lists them: every system's docked, then docked e-bike, then dockless. */
const ALTERNATIVES: readonly ((trip: Trip, system: LoadedSystem) => MultiModalOption | null)[] = [dockedOption, dockedEbikeOption, docklessOption];

export async function planMultiModal(request: MultiModalRequest, now: Date, sources: PlannerSources = platformSources): Promise<MultiModalOutcome> {
  const searchId = randomUUID();
  const route = request.eventId ? await sources.customRoute(request.eventId) : null;
  const points: LonLat[] = [request.start, request.end, ...request.stops, ...(route ? routePoints(route).map((point) => point.location) : [])];
  const city = cityForCoordinates(points);
  if (!city) return { kind: 'cross-city', searchId };

  const context = await routingContext(city, request.departureTime, now, { cycling: true, loaders: sources.routing });
  const routes = routePlanner(context, request.preferences, request.start);
  const night = routes.night;
  const details = request.destinationId !== null ? await sources.destination(request.destinationId) : null;
  const end: LonLat = route ? route.end.location : request.end;
  // Spec 4.2: the display name is used when no destination_id names the destination.
  const endName = route ? route.end.name : (details?.name ?? request.endName ?? null);
  const trip: Trip = {
    planner: new TripPlanner(routes),
    request,
    city,
    route,
    end,
    endLabel: endName ?? endLabel(request.preferences.language, 'destination'),
    atSeconds: Math.floor(context.departure.instant.toSeconds()),
  };

  const graph = context.loaded.network.graph;
  const borough = destinationBorough(graph, end);
  // Spec 4.2 rule 7: parking applies to the last hop, never with a custom route.
  const spot =
    request.parkingType && !route
      ? await chooseParking({ city: city.id, graph, destination: end, parkingType: request.parkingType, operator: request.operator, borough, spots: sources.spots })
      : null;
  const options = personalOptions(trip, spot ? parkingBody(spot, end) : null);
  // Spec 4.2 rule 6: with stops, only the Personal option.
  if (options.length > 0 && request.stops.length === 0) {
    // Without bike-share data the rider still gets the Personal options.
    const view = await sources.bikeShare(city.id).catch((error: unknown) => {
      logger.warn('bike share unavailable; answering the Personal options only', { city: city.id, error: error as Error });
      return new BikeShareView([]);
    });
    const alternatives = ALTERNATIVES.flatMap((option) => view.systems.map((system) => option(trip, system))).filter((option) => option !== null);
    const reference = options[0]!.duration;
    options.push(...alternatives.filter((option) => option.duration <= SLOWEST_ALTERNATIVE_FACTOR * reference));
  }

  return {
    kind: 'planned',
    body: {
      search_id: searchId,
      options,
      destination_parking: destinationParkingOf(borough, request.operator),
      origin: { name: request.startName, location: roundPosition(request.start) },
      destination: { name: endName, location: roundPosition(end), details },
      graph_version: context.loaded.version,
      sublabel: night ? NIGHT_SUBLABEL : null,
      metadata: { nighttime: night, stops: request.stops.length, custom_route: route?.route_id ?? null },
    },
  };
}
