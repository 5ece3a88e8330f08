import { describe, expect, it } from 'vitest';
import { call, newKey } from '../support/running-platform.ts';

/**
 * Directions' `alternatives` (beyond the spec, docs/routing.md "Alternative routes") over HTTP on
 * the real London graph: the alternatives come with their own steps, safety breakdown and heights;
 * a request without the field, or with false, answers as the spec's; a bad value is a 400.
 */

const enterprise = () => newKey({ name: 'directions-alternatives', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const bloomsbury = [[-0.1337, 51.5246], [-0.1246, 51.5219]];
const NOON = '2026-06-15T12:00';

const total = (breakdown: Record<string, number>) => Object.values(breakdown).reduce((sum, metres) => sum + metres, 0);

describe('POST /directions/v2/ with alternatives', () => {
  it('answers alternatives beside the route, each with its own steps, breakdown and cost', async () => {
    const response = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: bloomsbury, departure_time: NOON, supersafe: false, alternatives: true } });
    expect(response.status).toBe(200);
    const { route, alternatives } = response.body;
    expect(alternatives.length).toBeGreaterThanOrEqual(2);
    expect(alternatives.length).toBeLessThanOrEqual(3);
    let previous = 0;
    for (const alternative of alternatives) {
      expect(alternative.geometry.coordinates).not.toEqual(route.geometry.coordinates);
      expect(alternative.steps[0].maneuver.type).toBe('Start');
      expect(alternative.steps.at(-1).maneuver.type).toBe('Arrive');
      const summed = alternative.steps.reduce((sum: number, step: { distance: number }) => sum + step.distance, 0);
      expect(Math.abs(summed - alternative.distance)).toBeLessThan(1);
      expect(Math.abs(total(alternative.safety_breakdown) - alternative.distance)).toBeLessThan(5);
      expect(alternative.cost_ratio).toBeLessThanOrEqual(1.4);
      expect(alternative.cost_ratio).toBeGreaterThanOrEqual(previous);
      expect(alternative.shared_share).toBeLessThanOrEqual(0.7);
      previous = alternative.cost_ratio;
    }
    // A count asks for at most that many: the first found of the same candidates (found in the same order).
    const one = await call('/directions/v2/', { key: await enterprise(), body: { coordinates: bloomsbury, departure_time: NOON, supersafe: false, alternatives: 1 } });
    expect(one.body.alternatives).toHaveLength(1);
    expect(alternatives.map((alternative: { geometry: unknown }) => alternative.geometry)).toContainEqual(one.body.alternatives[0].geometry);
  });

  it('answers as the spec does when the field is absent or false', async () => {
    const key = await enterprise();
    const absent = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: NOON } });
    const off = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: NOON, alternatives: false } });
    expect(absent.status).toBe(200);
    expect(absent.body).not.toHaveProperty('alternatives');
    expect({ ...off.body, search_id: null }).toEqual({ ...absent.body, search_id: null });
    expect(JSON.stringify({ ...off.body, search_id: null })).toBe(JSON.stringify({ ...absent.body, search_id: null }));
  });

  it("refuses a count over 3, a value that is neither, more than two coordinates and walking, in the spec's error shape", async () => {
    const key = await enterprise();
    // One problem is named in `error`; `details` lists them where there are several.
    const refused = async (body: Record<string, unknown>, error: RegExp) => {
      const response = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: NOON, ...body } });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(error);
      expect(Object.keys(response.body).every((field) => ['error', 'code', 'details'].includes(field))).toBe(true);
    };
    await refused({ alternatives: 4 }, /alternatives: must be at most 3/);
    await refused({ alternatives: 0 }, /alternatives: must be true, false or a count from 1 to 3/);
    await refused({ alternatives: 'yes' }, /alternatives: must be true, false or a count from 1 to 3/);
    await refused({ alternatives: 1.5 }, /alternatives: must be true, false or a count from 1 to 3/);
    await refused({ alternatives: true, coordinates: [...bloomsbury, [-0.128, 51.523]] }, /alternatives: are planned between two coordinates only/);
    await refused({ alternatives: 2, profile: 'walking' }, /alternatives: are planned for cycling only/);
  });
});
