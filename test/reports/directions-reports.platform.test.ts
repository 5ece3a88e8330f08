import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { haversineMetres } from '../../core/geo.ts';
import { dynamo } from '../../platform/aws.ts';
import { tableName } from '../../platform/resources.ts';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import { admin, fileReport, inReview, keyed } from './reports-support.ts';
import { call, newKey, useLocalAws } from '../support/running-platform.ts';

/**
 * Accepted road reports bend routes without a rebuild (spec 1): an avoidance item, as the reports
 * pipeline writes it on acceptance, reaches the running router within its refresh interval, the
 * route goes round the closed road and lists it in `disruptions`, and a temporary closure stops
 * applying to departures after its end.
 */

const enterprise = () => newKey({ name: 'directions reports', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const coordinates = [[-74.0095, 40.7141], [-73.9982, 40.7296]];
const DEPARTURE = '2026-06-15T12:00';

const passesNear = (geometry: [number, number][], point: [number, number], metres: number): boolean =>
  geometry.some(([lon, lat]) => haversineMetres(lon, lat, point[0], point[1]) < metres);

describe('accepted reports in routing', () => {
  it('routes round an accepted closure within the refresh interval, and back once it has ended', async () => {
    useLocalAws();
    const key = await enterprise();
    const before = await call('/directions/v2/', { key, body: { coordinates, departure_time: DEPARTURE } });
    expect(before.status).toBe(200);
    // Close the middle of the route's longest step: a street the route cannot do without cheaply.
    const longest = before.body.route.steps.reduce((best: any, step: any) => (step.distance > best.distance ? step : best));
    const line: [number, number][] = longest.geometry.coordinates;
    const closed = line[Math.floor(line.length / 2)]!;
    expect(passesNear(before.body.route.geometry.coordinates, closed, 5)).toBe(true);

    const item: AvoidanceItem = {
      city: 'new-york',
      report_id: randomUUID(),
      effect: 'closed',
      issue_type: 'road_closed',
      issue_subtype: 'temporary_closure',
      location: closed,
      way_id: null,
      road_name: longest.name || null,
      until: '2026-06-15T14:00:00-04:00',
      accepted_at: '2026-06-15T11:00:00-04:00',
    };
    await dynamo().send(new PutCommand({ TableName: tableName('routeAvoidances'), Item: item }));

    let after = before;
    for (let attempt = 0; attempt < 60 && passesNear(after.body.route.geometry.coordinates, closed, 5); attempt++) {
      await sleep(500);
      after = await call('/directions/v2/', { key, body: { coordinates, departure_time: DEPARTURE } });
    }
    expect(passesNear(after.body.route.geometry.coordinates, closed, 5)).toBe(false);
    expect(after.body.disruptions).toContainEqual(expect.objectContaining({ id: `report-${item.report_id}`, type: 'closure', source: 'report', active_at_departure: true }));

    // At 15:00 the temporary closure is over: the route takes the street again, with no disruption.
    const later = await call('/directions/v2/', { key, body: { coordinates, departure_time: '2026-06-15T15:00' } });
    expect(passesNear(later.body.route.geometry.coordinates, closed, 5)).toBe(true);
    expect(later.body.disruptions ?? []).not.toContainEqual(expect.objectContaining({ id: `report-${item.report_id}` }));
  });

  it('end to end: a closure filed over HTTP, analysed, accepted by a reviewer, bends the route; resolved, it no longer does', async () => {
    const key = await enterprise();
    // A departure a day ahead, inside the closure the reviewer accepts until three days ahead.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const departure_time = `${day(1)}T12:00`;
    const route = async () => (await call('/directions/v2/', { key, body: { coordinates, departure_time } })).body;
    const before = await route();
    const longest = before.route.steps.reduce((best: any, step: any) => (step.distance > best.distance ? step : best));
    const line: [number, number][] = longest.geometry.coordinates;
    const closed = line[Math.floor(line.length / 2)]!;

    const filed = await fileReport(keyed(key), { issue_type: 'road_closed', issue_subtype: 'temporary_closure', location: closed });
    expect(filed.status).toBe(200);
    await inReview(keyed(key), filed.body.id);
    const accepted = await admin('reports', 'accept', filed.body.id, '--until', `${day(3)}T18:00`);
    expect(accepted.code, accepted.stderr).toBe(0);

    const until = async (goesPast: boolean) => {
      let body = await route();
      for (let attempt = 0; attempt < 60 && passesNear(body.route.geometry.coordinates, closed, 5) !== goesPast; attempt++) {
        await sleep(500);
        body = await route();
      }
      return body;
    };
    const bent = await until(false);
    expect(passesNear(bent.route.geometry.coordinates, closed, 5)).toBe(false);
    expect(bent.disruptions).toContainEqual(expect.objectContaining({ id: `report-${filed.body.id}`, source: 'report', type: 'closure' }));

    const resolved = await admin('reports', 'resolve', filed.body.id, '--note', 'Reopened');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(passesNear((await until(true)).route.geometry.coordinates, closed, 5)).toBe(true);
  });
});

