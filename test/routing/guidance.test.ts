import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../functions/cities/index.ts';
import { Costing, type Profile } from '../../functions/routing/costing.ts';
import { localMinutes } from '../../functions/routing/graph-format.ts';
import { buildSteps } from '../../functions/routing/guidance/steps.ts';
import { buildPath } from '../../functions/routing/path.ts';
import { findRoute } from '../../functions/routing/search.ts';
import { positionsAt, snap } from '../../functions/routing/snap.ts';
import { realGraph, seededRandom } from './real-graphs.ts';

/** Properties of the turn-by-turn steps on random real routes, in both languages. */

const parsesAsXml = (text: string): boolean => {
  const parser = new SaxesParser();
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.write(text).close();
  return !failed;
};

describe('guidance on random real routes', () => {
  for (const city of cityIds.filter((id) => id !== 'sf-bay')) {
    it(`holds its properties in ${city}`, () => {
      const loaded = realGraph(city);
      const network = loaded.network;
      const random = seededRandom(city.length * 104729);
      let checked = 0;
      for (let attempt = 0; checked < 40 && attempt < 400; attempt++) {
        const profile: Profile = attempt % 3 === 2 ? 'walking' : 'cycling';
        const costing = new Costing(network, { profile, supersafe: attempt % 2 === 0, night: false, departureMinute: localMinutes(2026, 6, 15, 12, 0) });
        const usable = (edge: number) => costing.usable(edge);
        const near = () => {
          const node = Math.floor(random() * network.graph.nodeCount);
          return [network.nodeLon(node), network.nodeLat(node)] as const;
        };
        const from = snap(network, usable, near());
        const to = snap(network, usable, near());
        if (!from || !to) continue;
        const result = findRoute(costing, loaded.workspace, positionsAt(network, usable, from), positionsAt(network, usable, to), to.location);
        if (!result) continue;
        const path = buildPath(network, result);
        for (const language of ['en', 'es'] as const) {
          const steps = buildSteps(network, usable, path, { profile, language });
          const total = steps.reduce((sum, step) => sum + step.distance, 0);
          expect(Math.abs(total - path.distance)).toBeLessThan(0.1 * steps.length + 0.5);
          const arrive = steps.at(-1)!;
          expect(arrive.maneuver.instruction).toBe(language === 'en' ? 'Arrive at destination' : 'Llega a tu destino');
          expect(arrive.voice_instructions).toEqual([]);
          expect(arrive.segments).toEqual([]);
          for (const [index, step] of steps.entries()) {
            expect(step.maneuver.instruction.trim()).not.toBe('');
            expect(step.maneuver.location).toEqual(step.geometry.coordinates[0]);
            expect(step.mode).toBe(profile);
            if (profile === 'walking') expect(step).not.toHaveProperty('safety_classification');
            if (step !== arrive) {
              // Stretches cover the geometry exactly, consecutive ones sharing a coordinate.
              expect(step.segments[0]!.start_index).toBe(0);
              expect(step.segments.at(-1)!.end_index).toBe(step.geometry.coordinates.length - 1);
              for (let s = 1; s < step.segments.length; s++) expect(step.segments[s]!.start_index).toBe(step.segments[s - 1]!.end_index);
            }
            const distances = step.voice_instructions.map((voice) => voice.distance_along_geometry);
            expect([...distances].sort((a, b) => b - a)).toEqual(distances);
            for (const voice of step.voice_instructions) {
              expect(voice.announcement.trim()).not.toBe('');
              expect(parsesAsXml(voice.ssml_announcement)).toBe(true);
            }
            for (const banner of step.banner_instructions) {
              expect(banner.primary.text.trim()).not.toBe('');
              if (banner.sub) expect(steps[index + 2]?.maneuver.type).not.toBe('Arrive');
              expect(banner.sub?.type).not.toBe('Arrive');
            }
          }
        }
        checked++;
      }
      expect(checked).toBe(40);
    });
  }
});
