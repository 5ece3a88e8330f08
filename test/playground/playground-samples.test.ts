import { describe, expect, it } from 'vitest';
import { cities, type CityId } from '../../core/cities/index.ts';
import type { Position } from '../../core/geo.ts';
import { RoutePlanner } from '../../core/routing/planning/planner.ts';
import { routeBody } from '../../core/routing/planning/route-body.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { sampleRoutes } from '../../lib/local/playground/samples.ts';
import { sharedLengthFraction } from '../support/shared-length.ts';
import { realGraph } from '../routing/real-graphs.ts';

/**
 * Each city's sample route (the playground's "Sample route" button) on the city's real graph:
 * the page draws the supersafe and the direct route side by side, so they must run on visibly
 * different streets, or the second line hides under the first.
 */

/** The playground tests' and screenshots' departure: mid-morning on a Monday in June, city time. */
const DEPARTURE = '2026-06-15T10:30';
/**
 * Less than this share of either route's length runs where the other does. London's earlier
 * sample shared 55 % and its second line was hardly visible; the samples now share at most 12 %.
 */
const MOST_SHARED = 0.5;

describe("the playground's sample routes", () => {
  it.each(Object.keys(sampleRoutes) as CityId[])('%s: the supersafe and the direct route share under half of their length', (id) => {
    const city = cities[id];
    const pair = sampleRoutes[id];
    const context = { city, loaded: realGraph(id), departure: departureIn(city.timeZone, DEPARTURE, new Date(0)), reports: null };
    const planner = new RoutePlanner(context, { language: 'en', avoidHills: false, nighttime: false }, pair[0]);
    const lineOf = (supersafe: boolean): Position[] => {
      const leg = planner.route({ profile: 'cycling', supersafe }, pair).legs?.[0];
      expect(leg, `${id} ${supersafe ? 'supersafe' : 'direct'}`).toBeDefined();
      return routeBody(leg!.steps, [leg!.path]).geometry.coordinates;
    };
    const [supersafe, direct] = [lineOf(true), lineOf(false)];
    expect(sharedLengthFraction(supersafe, direct)).toBeLessThan(MOST_SHARED);
    expect(sharedLengthFraction(direct, supersafe)).toBeLessThan(MOST_SHARED);
  });
});
