import { describe, expect, it } from 'vitest';
import { call, newKey } from '../support/running-platform.ts';

/** Route quality rules over HTTP on the real graphs: pushing said as such, snapping by the clock, the deprecated code. */

const enterprise = () => newKey({ name: 'directions quality', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
// From Argyle Square, whose way to Regent Square starts down a flight of steps (the README's example).
const bloomsbury = [[-0.1337, 51.5246], [-0.1246, 51.5219]];
const DAY = '2026-06-15T12:00';

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe('directions route quality', () => {
  it('gives a pushed stretch its own walking step, said as such in both languages, timed at walking pace', async () => {
    const key = await enterprise();
    for (const [language, words] of [['en', 'Walk your bike'], ['es', 'Camina con la bici']] as const) {
      const response = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, departure_time: DAY, language } });
      expect(response.status).toBe(200);
      const { route, metadata } = response.body;
      const walking = route.steps.filter((step: any) => step.mode === 'walking');
      expect(walking.length).toBeGreaterThan(0);
      expect(walking[0].maneuver.instruction).toContain(words);
      for (const step of walking) {
        expect(step).not.toHaveProperty('safety_classification');
        expect(step).not.toHaveProperty('lit');
        expect(step.duration).toBeCloseTo(step.distance / (5 / 3.6), 0);
        expect(step.voice_instructions.length + step.banner_instructions.length).toBeGreaterThan(0);
      }
      // The breakdown counts pushed metres apart from every safety class.
      const pushedSteps = walking.reduce((sum: number, step: any) => sum + step.distance, 0);
      expect(Math.abs(metadata.safety_breakdown.pushed - pushedSteps)).toBeLessThanOrEqual(walking.length);
      const classified = ['quiet', 'cycleway', 'moderate', 'busy', 'shared'].reduce((sum, safety) => sum + metadata.safety_breakdown[safety], 0);
      expect(Math.abs(classified + metadata.safety_breakdown.pushed - route.distance)).toBeLessThanOrEqual(3);
    }
  });

  it("makes route.safety_code and each leg's the mean of their ridden steps' codes", async () => {
    const key = await enterprise();
    const stops = [[-74.006, 40.7128], [-73.997, 40.71], [-73.9899, 40.6955]];
    const response = await call('/directions/v2/', { key, body: { coordinates: stops, departure_time: DAY } });
    const ridden = (steps: any[]) => steps.filter((step) => step.safety_classification !== undefined).map((step) => step.safety_code);
    expect(response.body.route.safety_code).toBeCloseTo(mean(ridden(response.body.route.steps)), 10);
    for (const leg of response.body.legs) expect(leg.safety_code).toBeCloseTo(mean(ridden(leg.steps)), 10);
  });

  it('snaps to what is open at the departure: a start by City Hall Park routes at night too', async () => {
    const key = await enterprise();
    const coordinates = [[-74.006, 40.7128], [-73.997, 40.71]];
    const night = await call('/directions/v2/', { key, body: { coordinates, departure_time: '2026-06-15T03:52' } });
    const noon = await call('/directions/v2/', { key, body: { coordinates, departure_time: DAY } });
    expect(noon.body.route).not.toBeNull();
    expect(night.body.route).not.toBeNull();
    expect(night.body.metadata.nighttime).toBe(true);
    // The park's paths are closed at night: the night route starts off them, a few metres away.
    expect(night.body.waypoints[0].location).not.toEqual(noon.body.waypoints[0].location);
  });

  it('reads bearing for cycling only: a walking request ignores it', async () => {
    const key = await enterprise();
    const plain = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, profile: 'walking' } });
    const withBearing = await call('/directions/v2/', { key, body: { coordinates: bloomsbury, profile: 'walking', bearing: 90 } });
    expect(withBearing.status).toBe(200);
    expect(withBearing.body.route).not.toBeNull();
    expect(withBearing.body.route.geometry).toEqual(plain.body.route.geometry);
  });
});
