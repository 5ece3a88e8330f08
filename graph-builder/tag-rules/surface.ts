import { SEGMENT_COBBLES, SEGMENT_NARROW, SEGMENT_ROUGH, SEGMENT_UNPAVED, type RoadClass } from '../../core/graph/flags.ts';
import type { Tags } from '../osm/types.ts';
import type { Warnings } from '../warnings.ts';
import { tooNarrowForCargoRule } from './width.ts';

/** How rough a way's surface is (spec 1.2.7). */

/** Penalty class 0 (smooth) .. 3 (very rough). Spec 1.2.7: a cost, never a safety class. */
export const SURFACE_PENALTY: Readonly<Record<string, number>> = {
  asphalt: 0, paved: 0, concrete: 0, 'concrete:lanes': 1, 'concrete:plates': 1, paving_stones: 0, chipseal: 0,
  metal: 0, wood: 1, rubber: 0, tartan: 0, acrylic: 0, brick: 1, bricks: 1, clay: 2, metal_grid: 1,
  sett: 1, cobblestone: 2, unhewn_cobblestone: 3, stone: 2, grass_paver: 2, stepping_stones: 3,
  compacted: 1, fine_gravel: 1, gravel: 2, pebblestone: 2, unpaved: 2, ground: 2, dirt: 2, earth: 2,
  grass: 3, mud: 3, sand: 3, woodchips: 3, rock: 3, artificial_turf: 2, ice: 3, snow: 3, salt: 3,
};

export const SMOOTHNESS_PENALTY: Readonly<Record<string, number>> = {
  excellent: 0, good: 0, intermediate: 0, bad: 1, very_bad: 2, horrible: 3, very_horrible: 3, impassable: 3,
};

/** Surface penalty when no surface is tagged: tracks and paths are often unsealed. */
const DEFAULT_SURFACE_PENALTY: Readonly<Partial<Record<RoadClass, number>>> = { track: 1, path: 1, bridleway: 2 };

export function surfaceRule(tags: Tags, roadClass: RoadClass, warnings: Warnings): number {
  let penalty = DEFAULT_SURFACE_PENALTY[roadClass] ?? 0;
  const surface = tags.surface?.split(';')[0]!.trim();
  if (surface !== undefined) {
    const known = SURFACE_PENALTY[surface];
    if (known === undefined) warnings.count('ways with unknown surface (treated as smooth)', surface);
    penalty = known ?? 0;
  }
  const smoothness = tags.smoothness;
  if (smoothness !== undefined) {
    const known = SMOOTHNESS_PENALTY[smoothness];
    if (known === undefined) warnings.count('ways with unknown smoothness (ignored)', smoothness);
    else penalty = Math.max(penalty, known);
  }
  return penalty;
}

/**
 * Surfaces that are not sealed. The penalty above cannot say it: compacted and fine gravel share
 * penalty 1 with sett and brick, which are paved; a road bike avoids the first and rides the second.
 */
const UNPAVED_SURFACES: ReadonlySet<string> = new Set([
  'unpaved', 'compacted', 'fine_gravel', 'gravel', 'pebblestone', 'ground', 'dirt', 'earth', 'grass', 'grass_paver', 'mud',
  'sand', 'woodchips', 'rock', 'clay', 'stepping_stones', 'artificial_turf', 'ice', 'snow', 'salt',
]);
const COBBLED_SURFACES: ReadonlySet<string> = new Set(['sett', 'cobblestone', 'unhewn_cobblestone', 'cobblestone:flattened']);
const ROUGH_SMOOTHNESS: ReadonlySet<string> = new Set(['bad', 'very_bad', 'horrible', 'very_horrible', 'impassable']);
/** Without a `surface` tag these are taken as unsealed (as the surface penalty's defaults take them as rough). */
const UNPAVED_BY_DEFAULT: ReadonlySet<RoadClass> = new Set(['track', 'path', 'bridleway']);

/**
 * The way's SEGMENT_* bits (core/graph/flags.ts): unpaved, cobbled, rough (`smoothness` bad or
 * worse) and narrow (`maxwidth` under a cargo bike's width), which the bicycle types weigh
 * (core/routing/costing/bicycle-types.ts). Unknown surfaces count as paved, as the penalty counts them smooth.
 */
export function rideFlagsRule(tags: Tags, roadClass: RoadClass): number {
  const surface = tags.surface?.split(';')[0]!.trim();
  let flags = 0;
  if (surface === undefined ? UNPAVED_BY_DEFAULT.has(roadClass) : UNPAVED_SURFACES.has(surface)) flags |= SEGMENT_UNPAVED;
  if (surface !== undefined && COBBLED_SURFACES.has(surface)) flags |= SEGMENT_COBBLES;
  if (tags.smoothness !== undefined && ROUGH_SMOOTHNESS.has(tags.smoothness)) flags |= SEGMENT_ROUGH;
  if (tooNarrowForCargoRule(tags)) flags |= SEGMENT_NARROW;
  return flags;
}
