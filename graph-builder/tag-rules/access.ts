import type { Tags } from '../osm/types.ts';
import type { Warnings } from '../warnings.ts';
import type { DefaultCycling, HighwayRule } from './highways.ts';

/** Access tags (access, vehicle, bicycle, foot) and cycling access for the way as a whole. */

export type AccessVerdict = 'allowed' | 'denied' | 'push';

/** Values of access, vehicle, bicycle and foot. */
export const ACCESS_VALUES: Readonly<Record<string, AccessVerdict>> = {
  yes: 'allowed', designated: 'allowed', permissive: 'allowed', destination: 'allowed', customers: 'allowed',
  delivery: 'allowed', official: 'allowed', discouraged: 'allowed', unknown: 'allowed', public: 'allowed',
  no: 'denied', private: 'denied', agricultural: 'denied', forestry: 'denied', permit: 'denied', residents: 'denied',
  use_sidepath: 'denied', restricted: 'denied', military: 'denied', emergency: 'denied',
  dismount: 'push',
};

/** An access tag's verdict, or undefined when the tag is absent; unknown values count and are ignored. */
export function accessValue(tags: Tags, key: string, warnings: Warnings): AccessVerdict | undefined {
  const raw = tags[key];
  if (raw === undefined) return undefined;
  const verdict = ACCESS_VALUES[raw.split(';')[0]!.trim()];
  if (verdict === undefined) warnings.count(`ways with unknown ${key} value (ignored)`, raw);
  return verdict;
}

/** The first verdict from the most specific key to the least specific. */
export function mostSpecific(tags: Tags, keys: readonly string[], warnings: Warnings): AccessVerdict | undefined {
  for (const key of keys) {
    const verdict = accessValue(tags, key, warnings);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/**
 * Footways that run beside or across a carriageway a rider can use instead: a pavement drawn as
 * its own way, a crosswalk, a traffic island. Riding there is not allowed and pushing along them
 * is never the sensible way (the road is right there), so they are not part of the cycling
 * network unless a bicycle tag says otherwise.
 */
export const FOOTWAYS_BESIDE_THE_ROAD: ReadonlySet<string> = new Set(['sidewalk', 'crossing', 'traffic_island']);

/** Cycling access for the way as a whole: bicycle > vehicle > access > the highway default. */
export function cyclingAccessRule(tags: Tags, rule: HighwayRule, warnings: Warnings): DefaultCycling {
  const verdict = mostSpecific(tags, ['bicycle', 'vehicle', 'access'], warnings);
  if (verdict === 'denied') return 'no';
  if (verdict === 'push') return 'push';
  // access=yes on a footway does not make it rideable: only bicycle/vehicle can lift the default.
  const bicycleSpecific = tags.bicycle !== undefined || tags.vehicle !== undefined;
  if (verdict === 'allowed' && bicycleSpecific) return 'yes';
  const footwayKind = rule.roadClass === 'footway' || rule.roadClass === 'path' ? (tags.footway ?? tags.path) : undefined;
  if (footwayKind !== undefined && FOOTWAYS_BESIDE_THE_ROAD.has(footwayKind) && rule.cycling !== 'yes') return 'no';
  if (rule.roadClass === 'steps' && tags['ramp:bicycle'] === 'yes') return 'push';
  return rule.cycling;
}
