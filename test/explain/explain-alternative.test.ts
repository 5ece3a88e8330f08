import { describe, expect, it, vi } from 'vitest';
import { planDirections, type DirectionsBody } from '../../functions/directions/directions.ts';
import { directionsBody } from '../../functions/directions/request.ts';
import { explainSupersafe, type ExplainBody } from '../../functions/explain/explain.ts';
import { explainRequest } from '../../functions/explain/request.ts';
import { FIXED_NOW } from '../support/clock.ts';

/**
 * Explain-supersafe's `alternative` (beyond the spec, docs/explain.md) on the real London graph:
 * the sentence compares the supersafe route with the direct route's alternative that directions
 * lists at that place, measured as directions answers it; without the field, with the direct route.
 */

vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));

const bloomsbury = { coordinates: [[-0.1337, 51.5246], [-0.1246, 51.5219]], departure_time: '2026-06-15T12:00' };

const explained = async (body: Record<string, unknown>): Promise<ExplainBody> =>
  ((await explainSupersafe(explainRequest.parse({ ...bloomsbury, ...body }), FIXED_NOW)) as { body: ExplainBody }).body;

describe('explain-supersafe with an alternative', () => {
  it("compares the supersafe route with the direct route's alternative directions lists at that place", async () => {
    const directions = ((await planDirections(directionsBody.parse({ ...bloomsbury, supersafe: false, alternatives: true }), FIXED_NOW)) as { body: DirectionsBody }).body;
    const supersafe = ((await planDirections(directionsBody.parse(bloomsbury), FIXED_NOW)) as { body: DirectionsBody }).body;
    expect(directions.alternatives!.length).toBeGreaterThanOrEqual(2);
    const plain = await explained({});
    expect(plain.metadata).not.toHaveProperty('alternative');
    expect(plain.figures!.direct.distance).toBeCloseTo(directions.route!.distance, 0);
    for (const [index, alternative] of directions.alternatives!.entries()) {
      const body = await explained({ alternative: index + 1 });
      expect(body.metadata.alternative).toBe(index + 1);
      expect(body.figures!.direct.distance).toBeCloseTo(alternative.distance, 0);
      expect(body.figures!.direct.climb).toBeCloseTo(alternative.elevation_gain, 0);
      expect(body.figures!.supersafe.distance).toBeCloseTo(supersafe.route!.distance, 0);
      expect(body.explanation).toEqual(expect.any(String));
      expect(body.same_route).toBe(false);
    }
  });

  it('answers no sentence where the direct route has no such alternative, as where there is no route', async () => {
    // Gower Street to Russell Square: the direct route has no alternative that passes the tests.
    const coordinates = [[-0.1328, 51.5212], [-0.124, 51.5255]];
    const directions = ((await planDirections(directionsBody.parse({ ...bloomsbury, coordinates, supersafe: false, alternatives: true }), FIXED_NOW)) as { body: DirectionsBody }).body;
    expect(directions.alternatives).toEqual([]);
    const body = await explained({ coordinates, alternative: 1 });
    expect(body).toMatchObject({ explanation: null, figures: null, metadata: { alternative: 1 } });
  });

  it('takes a whole number from 1 to 3, between two coordinates only', () => {
    expect(explainRequest.safeParse({ ...bloomsbury, alternative: 4 }).success).toBe(false);
    expect(explainRequest.safeParse({ ...bloomsbury, alternative: 0 }).success).toBe(false);
    expect(explainRequest.safeParse({ ...bloomsbury, alternative: true }).success).toBe(false);
    const threeStops = explainRequest.safeParse({ ...bloomsbury, coordinates: [...bloomsbury.coordinates, [-0.128, 51.523]], alternative: 1 });
    expect(threeStops.error?.issues.map((issue) => issue.message)).toEqual(['is planned between two coordinates only']);
    expect(explainRequest.parse({ ...bloomsbury, alternative: 2 }).alternative).toBe(2);
  });
});
