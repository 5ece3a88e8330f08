import type { LonLat } from '../../core/geo.ts';
import { planDirections } from '../directions/directions.ts';
import { directionsRequest } from '../directions/request.ts';
import { EventInputError } from './catalogue.ts';
import { encodeRoute } from './geometry.ts';
import type { EventRoute } from './model.ts';

/**
 * An event's route planned through its waypoints on the city's routing graph, the same way
 * `/directions/v2/` plans a cycling route (supersafe), and stored as an encoded polyline with
 * the route's metres and seconds.
 */
export async function planEventRoute(via: readonly LonLat[]): Promise<{ route: EventRoute; coordinates: LonLat[] }> {
  const request = directionsRequest.parse({ coordinates: via.map(([lon, lat]) => [lon, lat]), profile: 'cycling', supersafe: true });
  const outcome = await planDirections(request);
  if (outcome.kind === 'cross-city') throw new EventInputError('route.via: the waypoints must lie in one covered city');
  const route = outcome.body.route;
  if (!route) throw new EventInputError('route.via: no cycling route joins these waypoints on the city graph (a point more than 250 m from any road?)');
  const coordinates = route.geometry.coordinates.map(([lon, lat]) => [lon, lat] as const);
  return { route: { distance: route.distance, duration: route.duration, polyline: encodeRoute(coordinates) }, coordinates };
}
