import { cityForCoordinates } from '../../core/cities/index.ts';
import { gpxDocument, type GpxRouteKind } from '../../core/routing/export/gpx.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import type { DocumentResult } from '../http/endpoint.ts';
import { noRouteToExport } from '../http/errors.ts';
import { header } from '../http/forms.ts';
import type { DirectionsBody } from './directions.ts';
import { GPX_MEDIA_TYPE, type AnswerFormat, type DirectionsRequest } from './request.ts';

/**
 * Directions as a GPX 1.1 file (beyond the spec; docs/routing.md, "GPX"): which format a request
 * asks for (its `format` field, request.ts, or its Accept header), and the answer as that file. The document itself is written by the engine's GPX
 * writer (core/routing/export/gpx.ts) from the same answer JSON callers get.
 */

/** The types an Accept header may give JSON by, most to least specific. */
const JSON_RANGES = ['application/json', 'application/*', '*/*'];

/**
 * The format a request asks for: its `format` field when it has one, else GPX when the Accept
 * header names `application/gpx+xml` with a quality at least that of JSON (RFC 9110 12.5.1);
 * any other Accept header, or none, gets JSON as the spec describes.
 */
export function requestedFormat(format: AnswerFormat | undefined, headers: Record<string, string | undefined>): AnswerFormat {
  if (format) return format;
  const accept = header(headers, 'accept');
  if (!accept) return 'json';
  const qualities = new Map<string, number>();
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (!type) continue;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    const q = quality ? Number(quality.slice(2)) : 1;
    qualities.set(type, Number.isFinite(q) ? q : 0);
  }
  const gpx = qualities.get(GPX_MEDIA_TYPE) ?? 0;
  const jsonRange = JSON_RANGES.find((range) => qualities.has(range));
  const json = jsonRange ? qualities.get(jsonRange)! : 0;
  return gpx > 0 && gpx >= json ? 'gpx' : 'json';
}

const routeKindOf = (body: DirectionsBody): GpxRouteKind => (body.metadata.profile === 'walking' ? 'walking' : body.metadata.supersafe ? 'supersafe' : 'direct');

/**
 * The directions answer as a GPX file, named for its search. `now` is the instant the answer was
 * planned at, which was its departure when the request gave none. No route: a 422 in the spec's
 * error shape, since a file without a route would load on a device as nothing to follow.
 */
export function gpxAnswer(request: DirectionsRequest, body: DirectionsBody, now: Date, baseUrl: string): DocumentResult {
  const city = cityForCoordinates(request.coordinates);
  if (!body.route || !city) throw noRouteToExport(body.search_id);
  const departure = departureIn(city.timeZone, request.departure_time, now).instant.toJSDate();
  const text = gpxDocument({
    language: request.language,
    departure,
    link: `${baseUrl}/directions/v2/`,
    waypoints: body.waypoints,
    routes: [{ kind: routeKindOf(body), route: body.route, legs: body.legs, elevationProfile: body.metadata.elevation_profile }],
  });
  return {
    document: { text, contentType: `${GPX_MEDIA_TYPE}; charset=utf-8` },
    headers: { 'Content-Disposition': `attachment; filename="spoke-route-${body.search_id}.gpx"` },
  };
}
