import type { Profile } from '../../graph/profiles.ts';
import type { SafetyClass } from '../../graph/flags.ts';
import type { RoutingNetwork } from '../network/network.ts';
import { appendPositions, type PathEdge, type RoutedPath } from '../path/path.ts';
import { type Position } from '../../geo.ts';
import type { Language } from '../../language.ts';
import { detectManeuvers, type Maneuver } from './maneuvers.ts';
import {
  ANNOUNCEMENT_DISTANCES,
  announcedText,
  inDistanceText,
  linkedByDistanceText,
  linkedText,
  maneuverText,
  speakableDistanceWithin,
  ssml,
} from './narrative.ts';

/** Steps of one leg, in the shape of spec 4.1, built from the routed path and its maneuvers. */

/** A maneuver followed within this many metres by another is announced together with it. */
export const COMPOUND_METRES = 30;

/** Deprecated numeric code (spec 1.1): quiet 0, cycleway 1, moderate 2, busy 3; shared paths, away from traffic, are 1. */
export const SAFETY_CODES: Record<SafetyClass, number> = { quiet: 0, cycleway: 1, moderate: 2, busy: 3, shared: 1 };

export interface Segment {
  start_index: number;
  end_index: number;
  safety_classification?: SafetyClass;
  cycle_routes: string[] | null;
  lit?: boolean;
}

export interface BannerText {
  text: string;
  components: { text: string; type: 'text' | 'road-name' }[];
  type: string;
  modifier?: string;
}

export interface Step {
  distance: number;
  duration: number;
  delta_elevation: number;
  /** Beyond the spec: metres climbed and descended along the step (`delta_elevation` is their difference). */
  elevation_gain: number;
  elevation_loss: number;
  name: string;
  mode: Profile;
  safety_code: number;
  safety_classification?: SafetyClass;
  maneuver: {
    type: string;
    modifier?: string;
    instruction: string;
    location: Position;
    bearing_before: number;
    bearing_after: number;
  };
  exits: string;
  geometry: { type: 'LineString'; coordinates: Position[] };
  cycle_routes: string[] | null;
  lit?: boolean;
  segments: Segment[];
  voice_instructions: { distance_along_geometry: number; announcement: string; ssml_announcement: string }[];
  banner_instructions: { distance_along_geometry: number; primary: BannerText; secondary?: BannerText; sub?: BannerText }[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;

interface StepShape {
  maneuver: Maneuver;
  edges: PathEdge[];
  coordinates: Position[];
  /** Per edge i, the index range in `coordinates` it covers: [ranges[2i], ranges[2i + 1]]. */
  ranges: number[];
  distance: number;
  name: string;
  ref: string;
}

function shapeSteps(maneuvers: Maneuver[], path: RoutedPath): StepShape[] {
  return maneuvers.map((maneuver, index) => {
    const end = maneuvers[index + 1]?.pathIndex ?? path.edges.length;
    const edges = path.edges.slice(maneuver.pathIndex, end);
    const coordinates: Position[] = [];
    const ranges: number[] = [];
    let distance = 0;
    for (const edge of edges) {
      const start = Math.max(0, coordinates.length - 1);
      appendPositions(coordinates, edge.coordinates);
      ranges.push(start, Math.max(start, coordinates.length - 1));
      distance += edge.length;
    }
    if (coordinates.length === 0) coordinates.push(maneuver.location);
    if (coordinates.length === 1) coordinates.push(coordinates[0]!);
    return { maneuver, edges, coordinates, ranges, distance, name: maneuver.name, ref: maneuver.ref };
  });
}

/** The class covering the most metres (the first met, of classes covering as many). */
function representativeClass(edges: PathEdge[]): SafetyClass | undefined {
  // A handful of classes at most: kept in the order first met, as the choice among equals needs.
  const classes: SafetyClass[] = [];
  const metres: number[] = [];
  for (const edge of edges) {
    const known = classes.indexOf(edge.safety);
    if (known >= 0) metres[known]! += edge.length;
    else {
      classes.push(edge.safety);
      metres.push(edge.length);
    }
  }
  let best = -1;
  for (let i = 0; i < classes.length; i++) if (best < 0 || metres[i]! > metres[best]!) best = i;
  return best < 0 ? undefined : classes[best];
}

/** Routes signed along at least half of the step. */
function representativeRoutes(edges: PathEdge[], total: number): string[] | null {
  if (edges.every((edge) => edge.cycleRoutes.length === 0)) return null;
  const metres = new Map<string, number>();
  for (const edge of edges) for (const route of edge.cycleRoutes) metres.set(route, (metres.get(route) ?? 0) + edge.length);
  const routes = [...metres].filter(([, length]) => length * 2 >= total && total > 0).map(([route]) => route);
  return routes.length ? routes : null;
}

function isLit(edges: PathEdge[], total: number): boolean {
  let lit = 0;
  let any = false;
  for (const edge of edges) {
    if (edge.lit !== true) continue;
    lit += edge.length;
    any = true;
  }
  return total > 0 ? lit * 2 >= total : any;
}

/** Whether two edges read the same in a step's segments: safety class, lighting and signed routes (as one list). */
function sameStretch(a: PathEdge, b: PathEdge): boolean {
  if (a.safety !== b.safety || (a.lit === true) !== (b.lit === true)) return false;
  const routes = a.cycleRoutes;
  const others = b.cycleRoutes;
  if (routes.length === others.length && routes.every((route, i) => route === others[i])) return true;
  return routes.join(';') === others.join(';');
}

function stretches(shape: StepShape, profile: Profile): Segment[] {
  const segments: Segment[] = [];
  let open: PathEdge | undefined;
  shape.edges.forEach((edge, index) => {
    const start = shape.ranges[2 * index]!;
    const end = shape.ranges[2 * index + 1]!;
    const last = segments[segments.length - 1];
    if (last && open && sameStretch(edge, open)) {
      last.end_index = end;
      return;
    }
    open = edge;
    segments.push({
      start_index: start,
      end_index: end,
      ...(profile === 'cycling' ? { safety_classification: edge.safety } : {}),
      cycle_routes: edge.cycleRoutes.length ? edge.cycleRoutes : null,
      ...(profile === 'cycling' ? { lit: edge.lit === true } : {}),
    });
  });
  // Stretches cover the geometry from its first to its last coordinate.
  if (segments.length) segments[segments.length - 1]!.end_index = shape.coordinates.length - 1;
  return segments;
}

function bannerText(language: Language, shape: StepShape, instruction: string): BannerText {
  const { maneuver } = shape;
  const named = maneuver.type !== 'Arrive' && shape.name;
  return {
    text: named ? shape.name : instruction,
    components: [named ? { text: shape.name, type: 'road-name' } : { text: instruction, type: 'text' }],
    type: maneuver.type,
    ...(maneuver.modifier ? { modifier: maneuver.modifier } : {}),
  };
}

export interface StepOptions {
  profile: Profile;
  language: Language;
}

export function buildSteps(network: RoutingNetwork, usable: (edge: number) => boolean, path: RoutedPath, options: StepOptions): Step[] {
  const { profile, language } = options;
  const shapes = shapeSteps(detectManeuvers(network, usable, path, profile), path);
  const own = shapes.map((shape) => maneuverText(language, shape.maneuver));
  const announced = shapes.map((shape) => announcedText(language, shape.maneuver));
  const isArrive = (index: number) => shapes[index]?.maneuver.type === 'Arrive';
  /** A step whose maneuver is followed within COMPOUND_METRES by one that is not the arrival. */
  const compound = (index: number) => shapes[index]!.distance < COMPOUND_METRES && index + 1 < shapes.length && !isArrive(index + 1);
  const spoken = (index: number) => (compound(index) ? linkedText(language, own[index]!, own[index + 1]!) : announced[index]!);
  const { early, near, minimumGap } = ANNOUNCEMENT_DISTANCES[profile];

  /**
   * Cues of step `index`, announcing the maneuver at its end, as metres before it, far to near.
   * The first step opens with the depart sentence. An early cue comes at the early distance or,
   * on a step too short for that, soon after the step starts where the distance left is a round
   * figure ("In 200 metres"). The near cue comes at the near distance, or at the start of a step
   * shorter than that. Cues in a step are never closer than the minimum gap: the depart sentence
   * takes the next maneuver along when they would be. A short step's only cue is left out when
   * the cue just before it, under COMPOUND_METRES back, already said "then" and its maneuver.
   */
  const cues = (index: number, previousNearest: number | undefined): { at: number; text: string }[] => {
    const distance = shapes[index]!.distance;
    const next = spoken(index + 1);
    if (index === 0 && distance - near < minimumGap) {
      return [{ at: distance, text: distance > near ? linkedByDistanceText(language, own[0]!, distance, next) : linkedText(language, own[0]!, next) }];
    }
    const said: { at: number; text: string }[] = index === 0 ? [{ at: distance, text: own[0]! }] : [];
    const farthest = () => said[said.length - 1]?.at ?? Infinity;
    const soonAfterStart = speakableDistanceWithin(distance);
    if (distance >= early + minimumGap && farthest() - early >= minimumGap) said.push({ at: early, text: inDistanceText(language, early, next) });
    else if (index > 0 && soonAfterStart - near >= minimumGap) said.push({ at: soonAfterStart, text: inDistanceText(language, soonAfterStart, next) });
    if (distance > near) {
      if (farthest() - near >= minimumGap) said.push({ at: near, text: inDistanceText(language, near, next) });
    } else if (!(compound(index) && previousNearest !== undefined && previousNearest < COMPOUND_METRES)) {
      said.push({ at: distance, text: next });
    }
    return said;
  };

  let previousNearest: number | undefined;
  return shapes.map((shape, index) => {
    const arrive = isArrive(index);
    const { maneuver, edges, distance } = shape;
    // A cycling route's pushed stretch is a walking step: no safety class, no lighting.
    const mode = maneuver.mode;
    const safety = mode === 'cycling' && !arrive ? representativeClass(edges) : undefined;

    const voice: Step['voice_instructions'] = [];
    const banners: Step['banner_instructions'] = [];
    if (!arrive) {
      // This step's cues announce the maneuver at its end: the next step's.
      const next = index + 1;
      for (const { at, text } of cues(index, previousNearest)) {
        voice.push({ distance_along_geometry: round1(at), announcement: text, ssml_announcement: ssml(language, text) });
      }
      previousNearest = voice.length ? voice[voice.length - 1]!.distance_along_geometry : undefined;

      const following = next + 1;
      const preview = following < shapes.length && !isArrive(following) && (compound(next) || distance < COMPOUND_METRES);
      banners.push({
        distance_along_geometry: round1(distance),
        primary: bannerText(language, shapes[next]!, own[next]!),
        ...(shapes[next]!.ref && shapes[next]!.ref !== shapes[next]!.name ? { secondary: { text: shapes[next]!.ref, components: [{ text: shapes[next]!.ref, type: 'road-name' as const }], type: shapes[next]!.maneuver.type } } : {}),
        ...(preview ? { sub: bannerText(language, shapes[following]!, own[following]!) } : {}),
      });
    }

    const lastEdge = edges[edges.length - 1] ?? path.edges[path.edges.length - 1]!;
    let duration = 0;
    let ascent = 0;
    let descent = 0;
    for (const edge of edges) {
      duration += edge.duration;
      ascent += edge.ascent;
      descent += edge.descent;
    }
    return {
      distance: round1(distance),
      duration: round1(duration),
      delta_elevation: round1(ascent - descent),
      elevation_gain: round1(ascent),
      elevation_loss: round1(descent),
      name: shape.name,
      mode,
      safety_code: safety ? SAFETY_CODES[safety] : SAFETY_CODES[lastEdge.safety],
      ...(safety ? { safety_classification: safety } : {}),
      maneuver: {
        type: maneuver.type,
        ...(maneuver.modifier ? { modifier: maneuver.modifier } : {}),
        instruction: compound(index) ? linkedText(language, own[index]!, own[index + 1]!) : own[index]!,
        location: shape.coordinates[0]!,
        bearing_before: maneuver.bearingBefore,
        bearing_after: maneuver.bearingAfter,
      },
      exits: maneuver.exit ? String(maneuver.exit) : '',
      geometry: { type: 'LineString', coordinates: shape.coordinates },
      cycle_routes: arrive ? null : representativeRoutes(edges, distance),
      ...(mode === 'cycling' ? { lit: arrive ? lastEdge.lit === true : isLit(edges, distance) } : {}),
      segments: arrive ? [] : stretches(shape, mode),
      voice_instructions: voice,
      banner_instructions: banners,
    };
  });
}

