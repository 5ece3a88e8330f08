import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeRoute } from '../../functions/events/geometry.ts';
import { call, runAdmin } from '../support/running-platform.ts';
import { TEST_CLOCK_AT_HEADER } from '../../lib/local/gateway.ts';

/** `npm run admin -- events ...` against the running local platform. */

const admin = (...args: string[]) => runAdmin(['events', ...args]);

const idIn = (output: string, kind: string) => Number(new RegExp(`Created ${kind} (\\d+)`).exec(output)![1]);

// Each test has its own names; they run side by side to share the CLI's start-up time.
describe.concurrent('operator CLI: events', () => {
  it('creates a category, a destination and a group ride with a route planned on the graph, then updates, shows, lists and archives it', async () => {
    const tag = randomUUID().slice(0, 8);
    const category = await admin('categories', 'create', '--name', `Commute ${tag}`, '--emoji', '🚲');
    expect(category.code, category.stderr).toBe(0);
    const destination = await admin('destinations', 'create', '--name', `Tavistock Square ${tag}`, '--latitude', '51.5251', '--longitude', '-0.1289', '--area', 'Bloomsbury', '--category', `commute ${tag}`);
    expect(destination.code, destination.stderr).toBe(0);
    expect(destination.stdout).toContain('London');
    const destinationId = idIn(destination.stdout, 'destination');

    const created = await admin(
      'create', '--name', `Morning Commute Train ${tag}`, '--emoji', '🚲', '--image-url', 'https://images.example/commute.png',
      '--destination', String(destinationId), '--start', '2031-05-04T07:30:00+01:00', '--end', '2031-05-04T09:00:00+01:00',
      '--category', `Commute ${tag}`, '--via', '-0.1337,51.5246', '--via', '-0.1246,51.5219', '--description', 'Ride in together.',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/route: \d+(\.\d)? m/);
    const id = idIn(created.stdout, 'event');

    const shown = await admin('show', String(id));
    expect(shown.code, shown.stderr).toBe(0);
    const record = JSON.parse(shown.stdout);
    expect(record).toMatchObject({
      id,
      alias: `morning-commute-train-${tag}`,
      start_time: '2031-05-04T06:30:00Z',
      end_time: '2031-05-04T08:00:00Z',
      created_by: 'operator',
      city: 'London',
      destination: { id: destinationId, area_name: 'Bloomsbury', categories: [{ name: `Commute ${tag}`, emoji: '🚲' }] },
      categories: [{ name: `Commute ${tag}` }],
      visits_total: 0,
    });
    const line = decodeRoute(record.route.polyline);
    expect(line[0]![0]).toBeCloseTo(-0.1337, 2);
    expect(line.at(-1)![1]).toBeCloseTo(51.5219, 2);
    expect(record.route.distance).toBeGreaterThan(600);

    const updated = await admin('update', String(id), '--name', `Evening Commute Train ${tag}`, '--start', '2031-05-04T17:30:00Z', '--end', '2031-05-04T19:00:00Z');
    expect(updated.code, updated.stderr).toBe(0);
    const after = JSON.parse((await admin('show', String(id))).stdout);
    expect(after).toMatchObject({ alias: `evening-commute-train-${tag}`, start_time: '2031-05-04T17:30:00Z', route: record.route });

    expect((await admin('list', '--city', 'london')).stdout).toContain(`Evening Commute Train ${tag}`);
    expect((await admin('list', '--city', 'new-york')).stdout).not.toContain(`Evening Commute Train ${tag}`);

    const query = `/events/nearby/?latitude=51.5246&longitude=-0.1337&radius=300&categories=${encodeURIComponent(`commute ${tag}`)}`;
    const headers = { [TEST_CLOCK_AT_HEADER]: '2031-05-04T12:00:00Z' };
    expect((await call(query, { api: 'app', headers })).body.events.map((event: { id: number }) => event.id)).toEqual([id]);
    expect((await admin('archive', String(id))).code).toBe(0);
    expect((await call(query, { api: 'app', headers })).body.events).toEqual([]);
  });

  it('creates a leisure route from waypoints, and refuses what breaks the rules with exit code 2', async () => {
    const tag = randomUUID().slice(0, 8);
    const destination = await admin('destinations', 'create', '--name', `Bryant Park ${tag}`, '--latitude', '40.7536', '--longitude', '-73.9832', '--area', 'Midtown');
    const destinationId = idIn(destination.stdout, 'destination');
    const common = ['--emoji', '🌳', '--image-url', 'https://images.example/park.png', '--destination', String(destinationId)];
    const leisure = await admin('create', '--name', `Midtown Parks ${tag}`, ...common, '--via', '-73.9832,40.7536', '--via', '-73.988,40.742');
    expect(leisure.code, leisure.stderr).toBe(0);
    expect(leisure.stdout).toMatch(/leisure\s+New York City\s+permanent/);

    const refusals: [string[], RegExp][] = [
      [['create', '--name', `No route ${tag}`, ...common], /route: is required for a leisure route/],
      [['create', '--name', `Half ${tag}`, ...common, '--start', '2031-01-01T10:00:00Z'], /start_time and end_time are both set/],
      [['create', '--name', `Backwards ${tag}`, ...common, '--start', '2031-01-01T10:00:00Z', '--end', '2031-01-01T09:00:00Z'], /end_time: must be after start_time/],
      [['create', '--name', `No zone ${tag}`, ...common, '--start', '2031-01-01T10:00', '--end', '2031-01-01T12:00Z'], /start_time: must be an ISO 8601 time with a zone/],
      [['create', '--name', `Unknown ${tag}`, ...common, '--via', '-73.9832,40.7536', '--via', '-73.988,40.742', '--category', `Nope ${tag}`], /No category named Nope/],
      [['create', '--name', `Far ${tag}`, ...common, '--via', '-73.9832,40.7536', '--via', '-0.1262,51.5219'], /must lie in one covered city/],
      [['destinations', 'create', '--name', `Paris ${tag}`, '--latitude', '48.85', '--longitude', '2.35', '--area', 'Paris'], /none of the covered cities/],
      [['destinations', 'update', String(destinationId), '--latitude', '51.5219', '--longitude', '-0.1262'], /a place in another city is a new destination/],
      [['update', '999999999', '--name', 'Nothing'], /No event 999999999/],
      [['frobnicate'], /Usage: admin events/],
    ];
    for (const [args, message] of refusals) {
      const refused = await admin(...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr, args.join(' ')).toMatch(message);
    }
  });
});
