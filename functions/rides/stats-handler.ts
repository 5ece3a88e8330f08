import { endpoint } from '../http/endpoint.ts';
import { nowMs } from '../../platform/clock.ts';
import { riderOf } from '../riders/principal.ts';
import { getRider, RiderNotFoundError } from '../riders/profiles.ts';
import { rideSummaries } from './records.ts';
import { riderStatsQuery } from './request.ts';
import { riderStatsResponse } from './response.ts';
import { riderStats } from './stats.ts';

/** GET {app_base_url}/user/stats/?tz=: the rider's statistics (stats.ts defines them; docs/riders.md). */
export const handler = endpoint({ id: 'user-stats', query: riderStatsQuery, response: riderStatsResponse }, async ({ principal, query: { tz } }) => {
  const rider = riderOf(principal);
  if (!(await getRider(rider.sub))) throw new RiderNotFoundError();
  return { body: riderStats(await rideSummaries(rider.sub), nowMs(), tz) };
});
