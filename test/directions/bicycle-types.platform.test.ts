import { describe, expect, it } from 'vitest';
import { call, newKey } from '../support/running-platform.ts';

/**
 * The bicycle types over HTTP (beyond the spec; docs/routing.md, "Bicycle types"): `bicycle_type`
 * on directions and explain-supersafe, its validation, `hybrid` answering exactly what a request
 * without it answers, and walking ignoring it. From the West Village to Midtown Manhattan the
 * road bike and the e-bike take another way than hybrid, and every type's duration is its own.
 */

const enterprise = () => newKey({ name: 'bicycle-types', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const manhattan = { coordinates: [[-74.0, 40.73], [-73.98, 40.76]], departure_time: '2026-06-15T12:00' };

/** The answer without what differs between two requests of one trip (its id). */
const withoutId = (body: any) => ({ ...body, search_id: undefined });

describe('POST /directions/v2/ with bicycle_type', () => {
  it('answers hybrid exactly as without the field, but for saying the type', async () => {
    const key = await enterprise();
    const plain = await call('/directions/v2/', { key, body: manhattan });
    const hybrid = await call('/directions/v2/', { key, body: { ...manhattan, bicycle_type: 'hybrid' } });
    expect(hybrid.status).toBe(200);
    expect(hybrid.body.metadata.bicycle_type).toBe('hybrid');
    expect(plain.body.metadata).not.toHaveProperty('bicycle_type');
    const { bicycle_type: _, ...hybridMetadata } = hybrid.body.metadata;
    expect(withoutId({ ...hybrid.body, metadata: hybridMetadata })).toEqual(withoutId(plain.body));
  });

  it('plans and times each type\'s route by its own speeds', async () => {
    const key = await enterprise();
    const answers = Object.fromEntries(
      await Promise.all(['hybrid', 'road', 'mountain', 'cargo', 'ebike'].map(async (type) => [type, (await call('/directions/v2/', { key, body: { ...manhattan, bicycle_type: type } })).body] as const)),
    );
    for (const [type, body] of Object.entries(answers)) expect(body.metadata.bicycle_type, type).toBe(type);
    expect(answers.ebike.route.duration).toBeLessThan(0.8 * answers.hybrid.route.duration);
    expect(answers.road.route.duration).toBeLessThan(answers.hybrid.route.duration);
    expect(answers.cargo.route.duration).toBeGreaterThan(answers.hybrid.route.duration);
    expect(answers.road.route.geometry).not.toEqual(answers.hybrid.route.geometry);
  });

  it('refuses a type it does not know in the spec\'s error shape, and ignores the field for walking', async () => {
    const key = await enterprise();
    for (const bicycle_type of ['tandem', 'Road', 1, null]) {
      const response = await call('/directions/v2/', { key, body: { ...manhattan, bicycle_type } });
      expect(response.status, JSON.stringify(bicycle_type)).toBe(400);
      expect(response.body.error).toBe('bicycle_type: must be one of hybrid, road, mountain, cargo, ebike');
    }
    const walking = await call('/directions/v2/', { key, body: { ...manhattan, profile: 'walking', bicycle_type: 'cargo' } });
    const plainWalking = await call('/directions/v2/', { key, body: { ...manhattan, profile: 'walking' } });
    expect(walking.status).toBe(200);
    expect(walking.body.metadata).not.toHaveProperty('bicycle_type');
    expect(withoutId(walking.body)).toEqual(withoutId(plainWalking.body));
  });
});

describe('bicycle_type on explain-supersafe', () => {
  it('explains the routes of the type asked', async () => {
    const key = await enterprise();
    const hybrid = await call('/explain-supersafe/', { key, body: manhattan });
    const ebike = await call('/explain-supersafe/', { key, body: { ...manhattan, bicycle_type: 'ebike' } });
    expect(ebike.status).toBe(200);
    expect(hybrid.status).toBe(200);
    // Both of explain's routes are the e-bike's, timed at its speed.
    for (const route of ['supersafe', 'direct'] as const) expect(ebike.body.figures[route].duration).toBeLessThan(0.8 * hybrid.body.figures[route].duration);
    expect((await call('/explain-supersafe/', { key, body: { ...manhattan, bicycle_type: 'tandem' } })).status).toBe(400);
  });
});
