import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cityForCoordinates } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { baseLanguage } from '../../core/language.ts';
import { PROFILES, type Profile } from '../../core/graph/profiles.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import { waypointOf } from '../../core/routing/planning/leg.ts';
import { loadGraph } from '../../core/routing/planning/loaded-graph.ts';
import { RoutePlanner } from '../../core/routing/planning/planner.ts';
import { routeBody, safetyBreakdown } from '../../core/routing/planning/route-body.ts';
import { departureIn } from '../../core/routing/time/departure.ts';

/**
 * Plans a route from a graph file with the routing engine alone (core/ and nothing of AWS,
 * functions/ or lib/), through its one entry, the route planner (core/routing/planning/planner.ts): the proof that the engine is one package a tool can use as it is, and that
 * test/routing/engine-alone.test.ts checks. Prints the route as directions would answer it, on
 * the graph alone (no accepted reports).
 *
 *   npx tsx test/routing/plan-from-graph-file.ts --departure 2026-06-15T08:30 [--profile cycling|walking]
 *       [--direct] [--language en|es] <graph file> -- <lon,lat> <lon,lat> [more points]
 *
 * (the points after `--`, since a western longitude starts with a minus sign).
 */

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    departure: { type: 'string' },
    profile: { type: 'string', default: 'cycling' },
    direct: { type: 'boolean', default: false },
    language: { type: 'string', default: 'en' },
  },
});
const [graphFile, ...points] = positionals;
const profile = values.profile as Profile;
const language = baseLanguage(values.language);
if (!graphFile || points.length < 2 || !values.departure || !PROFILES.includes(profile) || !language) {
  console.error('Usage: plan-from-graph-file.ts --departure YYYY-MM-DDTHH:mm [--profile cycling|walking] [--direct] [--language en|es] <graph file> -- <lon,lat> <lon,lat> [...]');
  process.exit(2);
}
const coordinates = points.map((point): LonLat => {
  const [lon, lat] = point.split(',').map(Number);
  return [lon!, lat!];
});
const city = cityForCoordinates(coordinates);
if (!city) {
  console.error('The points do not lie in one covered city');
  process.exit(2);
}

const loaded = loadGraph(city.id, readFileSync(graphFile));
// The departure is required, so the engine never needs a clock's "now" (the epoch stands in for one).
const context: RoutingContext = { city, loaded, departure: departureIn(city.timeZone, values.departure, new Date(0)), reports: null };
const cycling = profile === 'cycling';
const planner = new RoutePlanner(context, { language, avoidHills: false }, coordinates[0]!);
const night = cycling && planner.night;
const { costing, snaps, legs } = planner.route({ profile, supersafe: !values.direct }, coordinates);
const route = legs ? routeBody(legs.flatMap((leg) => leg.steps), legs.map((leg) => leg.path)) : null;
process.stdout.write(
  `${JSON.stringify({
    graph_version: loaded.version,
    route,
    waypoints: coordinates.map((coordinate, index) => waypointOf(costing, snaps[index] ?? null, coordinate)),
    nighttime: night,
    safety_breakdown: route && cycling ? safetyBreakdown(legs!.map((leg) => leg.path)) : null,
    disruptions: route && cycling ? planner.disruptionsAlong(route.geometry.coordinates) : [],
  })}\n`,
);
