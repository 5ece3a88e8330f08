import { describe, expect, it } from 'vitest';
import type { MetricSummary } from '../../lib/local/metrics-log.ts';
import { readMetricDocuments, summariseMetrics } from '../../lib/local/metrics-log.ts';
import { until } from '../support/until.ts';
import { enterpriseKey, fileReport, keyed, RUSSELL_SQUARE } from '../reports/reports-support.ts';
import { call, newKey, platform, runAdmin } from '../support/running-platform.ts';

/**
 * The local platform's metrics are the functions' own EMF documents, kept in the state folder's
 * metrics log (lib/local/metrics-log.ts) and read by `npm run admin -- metrics`. Every request
 * here runs at one instant of the platform clock that no other test uses, so the window the test
 * reads holds its own requests' metrics only, however the other tests' requests interleave.
 */
const AT = '2033-03-01T10:07:00.000Z';
const atMs = Date.parse(AT);
const windowEnd = new Date(atMs + 10 * 60_000).toISOString();
const atInstant = { 'X-Spoke-Test-Clock-At': AT };

const bloomsbury = [[-0.1337, 51.5246], [-0.1246, 51.5219]];
const lowerManhattan = [[-74.006, 40.7128], [-73.997, 40.71]];
/** Heathrow: in London, but far outside the mapped roads. */
const heathrow = [-0.4543, 51.47];

const series = (rows: readonly MetricSummary[], metric: string, dimensions: Record<string, string>) =>
  rows.find((row) => row.metric === metric && JSON.stringify(row.dimensions) === JSON.stringify(dimensions));

describe('metrics on the local platform', () => {
  it('records routes per city and costing, null routes and why, refusals and reports, as the admin command shows them', async () => {
    const key = await enterpriseKey();
    const directions = (coordinates: unknown) => call('/directions/v2/', { key, headers: atInstant, body: { coordinates } });
    expect((await directions(bloomsbury)).body.route).not.toBeNull();
    expect((await directions(lowerManhattan)).body.route).not.toBeNull();
    expect((await directions([bloomsbury[0], heathrow])).body.route).toBeNull();
    expect((await call('/directions/v2/', { headers: { ...atInstant, apikey: 'spk_0000000000000000_not-a-real-secret-at-all-0000000000000000000' }, body: { coordinates: bloomsbury } })).status).toBe(401);
    // 24 coordinate pairs cost more than a free key's 10 a minute: refused at once.
    const free = await newKey({ name: 'metrics free key', plan: 'free' });
    const tooMany = Array.from({ length: 25 }, (_, index) => [-0.13 + index * 0.001, 51.52]);
    expect((await call('/directions/v2/', { key: free, headers: atInstant, body: { coordinates: tooMany } })).status).toBe(429);
    expect((await fileReport(keyed(key), { issue_type: 'road_closed', issue_subtype: 'barrier_gate', location: RUSSELL_SQUARE }, atInstant)).status).toBe(200);

    const rows = await until(async () => {
      const found = summariseMetrics(await readMetricDocuments(platform.state_dir, atMs, atMs + 10 * 60_000));
      return series(found, 'ReportsByStatus', { Status: 'received' }) && series(found, 'RateLimitRefusals', { Plan: 'free' }) ? found : null;
    });

    // Supersafe is directions' default costing.
    const london = { City: 'london', Costing: 'cycling-supersafe' };
    const newYork = { City: 'new-york', Costing: 'cycling-supersafe' };
    expect(series(rows, 'RoutesPlanned', london)).toMatchObject({ unit: 'Count', samples: 1, sum: 1 });
    expect(series(rows, 'RoutesPlanned', newYork)).toMatchObject({ samples: 1, sum: 1 });
    for (const city of [london, newYork]) {
      expect(series(rows, 'StatesSettled', city)!.sum).toBeGreaterThan(0);
      expect(series(rows, 'SearchTime', city)).toMatchObject({ unit: 'Milliseconds', samples: 1 });
    }
    expect(series(rows, 'RoutesNull', { City: 'london', Reason: 'outside_coverage' })).toMatchObject({ sum: 1 });
    expect(series(rows, 'SnapFailures', { City: 'london' })).toMatchObject({ sum: 1 });
    expect(series(rows, 'AuthorizerRefusals', { Reason: 'invalid' })).toMatchObject({ sum: 1 });
    expect(series(rows, 'RateLimitRefusals', { Plan: 'free' })).toMatchObject({ sum: 1 });
    expect(series(rows, 'ReportsByStatus', { Status: 'received' })).toMatchObject({ sum: 1 });
    // Only what these requests recorded (and a graph load, if one of them was a city's first): no
    // key, rider or id ever names a series.
    expect(rows.map((row) => row.metric).filter((metric) => !metric.startsWith('Graph')).sort()).toEqual(
      ['AuthorizerRefusals', 'RateLimitRefusals', 'ReportsByStatus', 'RoutesNull', 'RoutesPlanned', 'RoutesPlanned', 'SearchTime', 'SearchTime', 'SnapFailures', 'StatesSettled', 'StatesSettled'],
    );

    const shown = await runAdmin(['metrics', '--minutes', '10', '--until', windowEnd, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ minutes: 10, metrics: rows });
    const table = await runAdmin(['metrics', '--minutes', '10', '--until', windowEnd]);
    expect(table.stdout).toMatch(/^RoutesPlanned\s+City=new-york Costing=cycling-supersafe\s+Count\s+1\s+1$/m);
  }, 60_000);
});
