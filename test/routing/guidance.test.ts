import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { cityIds } from '../../core/cities/index.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { type Profile } from '../../core/graph/profiles.ts';
import { turnAngle } from '../../core/geo.ts';
import { EDGE_STEPS, NODE_JUNCTION, ROAD_CLASSES, roadClassOf, WALK_CROSSING, walkKindOf } from '../../core/graph/flags.ts';
import { localMinutes } from '../../core/local-time.ts';
import {
  CONNECTOR_METRES, MAX_CONNECTED_SPAN_METRES, OBVIOUS_MARGIN_DEGREES, SAME_NAME_TURN_DEGREES,
} from '../../core/routing/guidance/maneuvers.ts';
import en from '../../core/routing/guidance/locales/en.json' with { type: 'json' };
import es from '../../core/routing/guidance/locales/es.json' with { type: 'json' };
import type { Language } from '../../core/language.ts';
import { ANNOUNCEMENT_DISTANCES } from '../../core/routing/guidance/narrative.ts';
import { buildSteps, COMPOUND_METRES, type Step } from '../../core/routing/guidance/steps.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { buildPath, type PathEdge, type RoutedPath } from '../../core/routing/path/path.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { randomNodeLocation, realGraph, seededRandom } from './real-graphs.ts';

/** Properties of the turn-by-turn steps on random real routes, in both languages. */

const ROUTES_PER_CITY = 80;

const parsesAsXml = (text: string): boolean => {
  const parser = new SaxesParser();
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.write(text).close();
  return !failed;
};

const turnTypes = new Set(['Turn', 'Continue', 'U-turn']);
const linkWords = { en: ', then ', es: ' y luego ' };
const sides = { en: { left: 'left', right: 'right' }, es: { left: 'izquierda', right: 'derecha' } };
const wayWords = { en: en.ways, es: es.ways };
/** How a pushed stretch begins, and how riding begins again after one. */
const pushWords: Record<Language, string> = { en: 'walk your bike', es: 'camina con la bici' };
const remountWords: Record<Language, string> = { en: 'Get back on your bike', es: 'Vuelve a subirte a la bici' };
const PATH_CLASSES: ReadonlySet<string> = new Set(['cycleway', 'path', 'footway', 'pedestrian', 'bridleway', 'steps']);

/**
 * `sentence`, a step's own instruction leading onto the unnamed `edge`, describes the way by
 * its kind: steps and crossings as such, any other path as one of the locale's ways, and an
 * unnamed road, which a rider sees as a road, as none.
 */
function expectDescribesWay(sentence: string, edge: PathEdge, language: Language): void {
  const ways = wayWords[language];
  const says = (words: string[]) => words.some((word) => sentence.includes(word));
  if (edge.flags & EDGE_STEPS) expect(sentence).toContain(ways.steps);
  else if (walkKindOf(edge.flags) === WALK_CROSSING) expect(says([ways.crossing, ways.cycle_crossing])).toBe(true);
  else expect(says(Object.values(ways))).toBe(PATH_CLASSES.has(ROAD_CLASSES[roadClassOf(edge.flags)]!));
}

/** Index of the path edge a step's maneuver leads onto, searching from `from` on. */
function pathIndexOf(path: RoutedPath, step: Step, from: number): number {
  const [lon, lat] = step.maneuver.location;
  for (let index = Math.max(1, from); index < path.edges.length; index++) {
    const edge = path.edges[index]!;
    if (edge.length >= 1 && edge.coordinates[0]![0] === lon && edge.coordinates[0]![1] === lat) return index;
  }
  return -1;
}

/**
 * The rule for announcing a turn that keeps the road's name: at a junction, at least
 * SAME_NAME_TURN_DEGREES, and either sharp or not the obvious way on (another road the rider may
 * take, other than back, leaves less than OBVIOUS_MARGIN_DEGREES further from straight ahead).
 */
function sameNameTurnIsWarranted(network: RoutingNetwork, usable: (edge: number) => boolean, path: RoutedPath, index: number, step: Step): boolean {
  const graph = network.graph;
  const taken = path.edges[index]!.edge;
  const node = graph.edgeTail[taken]!;
  const angle = turnAngle(step.maneuver.bearing_before, step.maneuver.bearing_after);
  if (!(graph.nodeFlags[node]! & NODE_JUNCTION) || Math.abs(angle) < SAME_NAME_TURN_DEGREES) return false;
  if (step.maneuver.modifier?.startsWith('sharp')) return true;
  let arriving = index - 1;
  while (arriving > 0 && path.edges[arriving]!.length < 1) arriving--;
  const wayBack = network.reverseOf(path.edges[arriving]!.edge);
  for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) {
    if (edge === taken || edge === wayBack || !usable(edge)) continue;
    if (Math.abs(turnAngle(step.maneuver.bearing_before, network.startBearing(edge))) < Math.abs(angle) + OBVIOUS_MARGIN_DEGREES) return true;
  }
  return false;
}

/**
 * Whether the route goes back along the way it came at the maneuver starting at path edge
 * `index`: onto the road it arrived on, by name, or over a segment it also travels within a
 * maneuver's span (MAX_CONNECTED_SPAN_METRES) before the maneuver or after it.
 */
function goesBackAlongWay(path: RoutedPath, index: number, step: Step): boolean {
  let arriving = index - 1;
  while (arriving > 0 && path.edges[arriving]!.length < 1) arriving--;
  const arrivedOn = path.edges[arriving]!;
  if (step.name && (arrivedOn.name || arrivedOn.ref) === step.name) return true;
  const travelled = new Set<number>();
  for (let before = index - 1, metres = 0; before >= 0 && metres < MAX_CONNECTED_SPAN_METRES; metres += path.edges[before]!.length, before--) {
    travelled.add(path.edges[before]!.segment);
  }
  for (let after = index, metres = 0; after < path.edges.length && metres <= MAX_CONNECTED_SPAN_METRES; metres += path.edges[after]!.length, after++) {
    if (travelled.has(path.edges[after]!.segment)) return true;
    travelled.add(path.edges[after]!.segment);
  }
  return false;
}

describe('guidance on random real routes', () => {
  for (const city of cityIds.filter((id) => id !== 'sf-bay')) {
    it(`holds its properties in ${city}`, () => {
      const loaded = realGraph(city);
      const network = loaded.network;
      const random = seededRandom(city.length * 104729);
      let checked = 0;
      let pushedSteps = 0;
      for (let attempt = 0; checked < ROUTES_PER_CITY && attempt < ROUTES_PER_CITY * 10; attempt++) {
        const profile: Profile = attempt % 3 === 2 ? 'walking' : 'cycling';
        const costing = createCosting(network, { profile, supersafe: attempt % 2 === 0, night: false, departureMinute: localMinutes(2026, 6, 15, 12, 0) });
        const usable = (edge: number) => costing.usable(edge);
        const from = snap(network, usable, randomNodeLocation(network, random));
        const to = snap(network, usable, randomNodeLocation(network, random));
        if (!from || !to) continue;
        const result = findRoute(costing, loaded.workspace, positionsAt(network, usable, from), positionsAt(network, usable, to), to.location);
        if (!result) continue;
        const path = buildPath(network, result, profile);
        const timing = ANNOUNCEMENT_DISTANCES[profile];
        const byLanguage = { en: buildSteps(network, usable, path, { profile, language: 'en' }), es: buildSteps(network, usable, path, { profile, language: 'es' }) };

        // Only the words differ between languages; street names pass through untranslated.
        const strip = (step: Step) => ({ ...step, maneuver: { ...step.maneuver, instruction: '' }, voice_instructions: [], banner_instructions: [] });
        expect(byLanguage.es.map(strip)).toEqual(byLanguage.en.map(strip));
        byLanguage.en.forEach((step, index) => {
          if (step.name && step.maneuver.instruction.includes(step.name)) expect(byLanguage.es[index]!.maneuver.instruction).toContain(step.name);
        });

        for (const language of ['en', 'es'] as const) {
          const steps = byLanguage[language];
          const total = steps.reduce((sum, step) => sum + step.distance, 0);
          expect(Math.abs(total - path.distance)).toBeLessThan(0.1 * steps.length + 0.5);
          const arrive = steps.at(-1)!;
          expect(arrive.maneuver.instruction).toBe(language === 'en' ? 'Arrive at destination' : 'Llega a tu destino');
          expect(arrive.voice_instructions).toEqual([]);
          expect(arrive.segments).toEqual([]);
          let searchFrom = 1;
          for (const [index, step] of steps.entries()) {
            expect(step.maneuver.instruction.trim()).not.toBe('');
            expect(step.maneuver.location).toEqual(step.geometry.coordinates[0]);
            // A cycling route's pushed stretches are walking steps: no safety class, no lighting, words that say so.
            if (profile === 'walking') expect(step.mode).toBe('walking');
            if (step.mode === 'walking') {
              if (profile === 'cycling') pushedSteps++;
              expect(step).not.toHaveProperty('safety_classification');
              expect(step).not.toHaveProperty('lit');
            }
            const modeChanges = (at: number) => steps[at] !== undefined && steps[at - 1] !== undefined && steps[at]!.mode !== steps[at - 1]!.mode;
            if (profile === 'cycling' && step !== arrive) {
              const getsOff = step.mode === 'walking' && (index === 0 || modeChanges(index));
              expect(step.maneuver.instruction.split(linkWords[language])[0]!.toLowerCase().includes(pushWords[language])).toBe(getsOff);
              expect(step.maneuver.instruction.startsWith(remountWords[language])).toBe(index > 0 && modeChanges(index) && step.mode === 'cycling');
            }
            if (step !== arrive) {
              // Stretches cover the geometry exactly, consecutive ones sharing a coordinate.
              expect(step.segments[0]!.start_index).toBe(0);
              expect(step.segments.at(-1)!.end_index).toBe(step.geometry.coordinates.length - 1);
              for (let s = 1; s < step.segments.length; s++) expect(step.segments[s]!.start_index).toBe(step.segments[s - 1]!.end_index);
            }

            // An unnamed way reads by its kind; the name stays the real one. Past a connector's length no
            // later junction merges into a maneuver, so the way it leads onto is the one its words describe.
            const sentence = step.maneuver.instruction.split(linkWords[language])[0]!;
            expect(Object.values(wayWords[language])).not.toContain(step.name);
            const describable = (edge: PathEdge) => !step.name && edge.length >= CONNECTOR_METRES[profile];
            if (index === 0) {
              const setsOffOn = path.edges.find((edge) => edge.length >= 1)!;
              if (describable(setsOffOn)) expectDescribesWay(sentence, setsOffOn, language);
            }

            // The words agree with the maneuver's side (the library's Spanish once said left for a slight right).
            const { type, modifier } = step.maneuver;
            if ((type === 'Turn' || type === 'Continue') && modifier && modifier !== 'straight') {
              const words = sides[language];
              const clause = step.maneuver.instruction.split(linkWords[language])[0]!.replace(step.name, '');
              expect(clause).toContain(modifier.endsWith('left') ? words.left : words.right);
              expect(clause).not.toContain(modifier.endsWith('left') ? words.right : words.left);
            }

            const next = steps[index + 1];
            // Maneuvers closer together than a connector are one maneuver, and a start a few metres the wrong way is no U-turn.
            // (Where the rider gets off or back on the bike is a maneuver of its own, however close.)
            if (next && turnTypes.has(next.maneuver.type) && (turnTypes.has(step.maneuver.type) || next.maneuver.type === 'U-turn') && !modeChanges(index) && !modeChanges(index + 1)) {
              expect(step.distance).toBeGreaterThanOrEqual(CONNECTOR_METRES[profile] - 0.05);
            }
            // A step followed within COMPOUND_METRES by another maneuver announces both.
            if (next && next !== arrive && step.distance < COMPOUND_METRES) {
              expect(step.maneuver.instruction).toContain(linkWords[language]);
            }

            // A turn that keeps the road's name is announced only where it must be, and says so.
            if (index > 0 && step !== arrive) {
              const pathIndex = pathIndexOf(path, step, searchFrom);
              expect(pathIndex).toBeGreaterThan(0);
              searchFrom = pathIndex;
              // (A roundabout's words describe its exit, not the edge that enters it.)
              if (describable(path.edges[pathIndex]!) && step.maneuver.type !== 'roundabout') expectDescribesWay(sentence, path.edges[pathIndex]!, language);
              // The banner and the last cue before an unnamed way say what its instruction says.
              if (!step.name) {
                const before = steps[index - 1]!;
                expect(before.banner_instructions[0]!.primary.text).toBe(sentence);
                const lastCue = before.voice_instructions.at(-1);
                if (lastCue) expect(lastCue.announcement.toLowerCase()).toContain(sentence.toLowerCase());
              }
              if (step.maneuver.type === 'Turn' && step.name === steps[index - 1]!.name && !modeChanges(index)) {
                expect(sameNameTurnIsWarranted(network, usable, path, pathIndex, step)).toBe(true);
                if (language === 'en' && step.name) expect(step.maneuver.instruction).toMatch(new RegExp(`^[^,]* to stay on ${step.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
              }

              // A U-turn goes back along the way it came; heading back through a turn onto another way (a switchback) is a sharp turn.
              const reverses = Math.abs(turnAngle(step.maneuver.bearing_before, step.maneuver.bearing_after)) >= 170;
              if (step.maneuver.type === 'U-turn') expect(goesBackAlongWay(path, pathIndex, step)).toBe(true);
              else if (reverses && turnTypes.has(step.maneuver.type)) expect(step.maneuver.modifier).toMatch(/^sharp (left|right)$/);
            }

            // Cues run far to near, within the step, never crowded; every maneuver is announced
            // unless the cue just before, under COMPOUND_METRES back, already linked it.
            const distances = step.voice_instructions.map((voice) => voice.distance_along_geometry);
            for (let v = 1; v < distances.length; v++) expect(distances[v - 1]! - distances[v]!).toBeGreaterThanOrEqual(timing.minimumGap - 0.1);
            for (const at of distances) expect(at).toBeLessThanOrEqual(step.distance);
            if (step !== arrive && distances.length === 0) {
              const previousCues = steps[index - 1]?.voice_instructions ?? [];
              expect(step.distance).toBeLessThan(COMPOUND_METRES);
              expect(previousCues.at(-1)!.distance_along_geometry).toBeLessThan(COMPOUND_METRES);
            }
            for (const voice of step.voice_instructions) {
              expect(voice.announcement.trim()).not.toBe('');
              expect(parsesAsXml(voice.ssml_announcement)).toBe(true);
              // A distance spoken is the distance left when it is spoken, to the nearest 10 metres.
              const said = /^(?:In|A) (\d+) (?:metres|metros)/.exec(voice.announcement);
              if (said) expect(Math.abs(Number(said[1]) - voice.distance_along_geometry)).toBeLessThanOrEqual(5);
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
      expect(checked).toBe(ROUTES_PER_CITY);
      // Routes between random nodes start on footways now and then: the rules above were exercised.
      if (city === 'new-york') expect(pushedSteps).toBeGreaterThan(0);
    });
  }
});
