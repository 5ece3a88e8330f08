import { describe, expect, it } from 'vitest';
import { call, newKey } from '../support/running-platform.ts';

/**
 * The graded safety preference over HTTP (beyond the spec; docs/routing.md, "Graded safety"):
 * `safety` on directions, multi-modal and explain-supersafe, its validation, and that its ends
 * are the spec's two routes. In Manhattan, from the West Village to Midtown, the three kinds of
 * route differ: direct about 6.5 km, the grades between (0.25 to 0.75) about 6.8 km with half
 * direct's busy and shared metres, supersafe about 7.9 km with a quarter of them.
 */

const enterprise = () => newKey({ name: 'graded-safety', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const manhattan = { coordinates: [[-74.0, 40.73], [-73.98, 40.76]], departure_time: '2026-06-15T12:00' };

const busyShared = (body: any) => body.metadata.safety_breakdown.busy + body.metadata.safety_breakdown.shared;
const stepMetres = (legs: any[]) => legs.flatMap((leg) => leg.steps).reduce((sum: number, step: any) => sum + step.distance, 0);

describe('POST /directions/v2/ with safety', () => {
  it('answers the route at the grade, between direct and supersafe, and says the grade it planned at', async () => {
    const key = await enterprise();
    const direct = await call('/directions/v2/', { key, body: { ...manhattan, supersafe: false } });
    const supersafe = await call('/directions/v2/', { key, body: manhattan });
    const balanced = await call('/directions/v2/', { key, body: { ...manhattan, safety: 'balanced' } });
    expect(balanced.status).toBe(200);
    expect(balanced.body.metadata).toMatchObject({ profile: 'cycling', supersafe: false, safety: 0.25 });
    expect(balanced.body.route.distance).toBeGreaterThan(direct.body.route.distance + 100);
    expect(balanced.body.route.distance).toBeLessThan(supersafe.body.route.distance - 100);
    expect(busyShared(balanced.body)).toBeLessThan(busyShared(direct.body) - 100);
    expect(busyShared(balanced.body)).toBeGreaterThan(busyShared(supersafe.body) + 100);
    // A number between the quarters plans at the quarter below it.
    const between = await call('/directions/v2/', { key, body: { ...manhattan, safety: 0.3 } });
    expect(between.body.metadata.safety).toBe(0.25);
    expect(between.body.route.geometry).toEqual(balanced.body.route.geometry);
    // Without safety the answer says nothing of it (the spec's answer).
    expect(supersafe.body.metadata).not.toHaveProperty('safety');
  });

  it('answers safety 1 and quietest with the supersafe route and 0 and fastest with the direct one', async () => {
    const key = await enterprise();
    const geometry = async (body: object) => {
      const response = await call('/directions/v2/', { key, body: { ...manhattan, ...body } });
      expect(response.status).toBe(200);
      return response.body.route.geometry;
    };
    const supersafe = await geometry({ supersafe: true });
    const direct = await geometry({ supersafe: false });
    expect(supersafe).not.toEqual(direct);
    expect(await geometry({ safety: 1 })).toEqual(supersafe);
    expect(await geometry({ safety: 'quietest', supersafe: true })).toEqual(supersafe);
    expect(await geometry({ safety: 0 })).toEqual(direct);
    expect(await geometry({ safety: 'fastest', supersafe: false })).toEqual(direct);
    const quietest = await call('/directions/v2/', { key, body: { ...manhattan, safety: 'quietest' } });
    expect(quietest.body.metadata).toMatchObject({ supersafe: true, safety: 1 });
  });

  it('refuses a grade it does not know, out of range, or disagreeing with supersafe', async () => {
    const key = await enterprise();
    for (const safety of ['medium', 1.5, -0.1, '0.5', true, null]) {
      const response = await call('/directions/v2/', { key, body: { ...manhattan, safety } });
      expect(response.status, JSON.stringify(safety)).toBe(400);
      expect(response.body.error).toMatch(/^safety: must be a number from 0 \(direct\) to 1 \(supersafe\), or one of fastest, balanced, quietest/);
      expect(response.body).not.toHaveProperty('code');
    }
    for (const [safety, supersafe] of [[0.5, true], ['balanced', false], [1, false], ['fastest', true]] as const) {
      const response = await call('/directions/v2/', { key, body: { ...manhattan, safety, supersafe } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'SAFETY_CONFLICTS_WITH_SUPERSAFE', error: expect.stringMatching(/^safety: .* disagrees with supersafe/) });
    }
  });
});

describe('safety on multi-modal and explain-supersafe', () => {
  it('plans the Personal option flagged supersafe at the grade, and the direct one direct', async () => {
    const key = await enterprise();
    const [start, end] = manhattan.coordinates;
    const trip = { start, end, departure_time: manhattan.departure_time };
    const balanced = await call('/directions/v2/', { key, body: { ...manhattan, safety: 'balanced' } });
    const direct = await call('/directions/v2/', { key, body: { ...manhattan, supersafe: false } });
    const response = await call('/multi-modal/v2/', { key, body: { ...trip, safety: 'balanced' } });
    expect(response.status).toBe(200);
    const [safer, straight] = response.body.options;
    expect(safer).toMatchObject({ type: 'personal', supersafe: true });
    expect(straight).toMatchObject({ type: 'personal', supersafe: false });
    expect(stepMetres(safer.legs)).toBeCloseTo(balanced.body.route.distance, 0);
    expect(stepMetres(straight.legs)).toBeCloseTo(direct.body.route.distance, 0);
    const refused = await call('/multi-modal/v2/', { key, body: { ...trip, safety: 2 } });
    expect(refused.status).toBe(400);
  });

  it('explains the route at the grade against the direct one, in a sentence that still reads right', async () => {
    const key = await enterprise();
    const balanced = await call('/directions/v2/', { key, body: { ...manhattan, safety: 'balanced' } });
    const response = await call('/explain-supersafe/', { key, body: { ...manhattan, safety: 'balanced' } });
    expect(response.status).toBe(200);
    expect(response.body.same_route).toBe(false);
    expect(response.body.figures.supersafe.distance).toBe(balanced.body.route.distance);
    expect(response.body.explanation).toMatch(/^The safer route avoids \d+(\.\d)? k?m of busy roads and shared paths.*, for [\d.]+ k?m and \d+ minutes? more\.$/);
    // At safety 0 the two routes are one.
    const fastest = await call('/explain-supersafe/', { key, body: { ...manhattan, safety: 'fastest' } });
    expect(fastest.body).toMatchObject({ same_route: true, template: 'same' });
  });
});
