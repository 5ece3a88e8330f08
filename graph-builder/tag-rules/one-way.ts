import type { Tags } from '../osm/types.ts';
import type { Warnings } from '../warnings.ts';
import { ACCESS_VALUES } from './access.ts';
import type { SideInfrastructure } from './cycle-infrastructure.ts';

/** One-way: for motor traffic, and the directions bicycles may ride (spec 1.2.5). */

/** One-way for motor traffic: 1 along the way, -1 against it, 0 both ways. */
export function onewayRule(tags: Tags, warnings: Warnings): -1 | 0 | 1 {
  const value = tags.oneway;
  if (value === undefined) {
    return tags.junction === 'roundabout' || tags.junction === 'circular' ? 1 : 0;
  }
  if (value === 'yes' || value === 'true' || value === '1') return 1;
  if (value === '-1' || value === 'reverse') return -1;
  if (value === 'no' || value === 'false' || value === '0' || value === 'alternating' || value === 'reversible') return 0;
  warnings.count('ways with unparseable oneway (treated as two-way)', value);
  return 0;
}

export interface CyclingDirections {
  readonly forward: boolean;
  readonly backward: boolean;
  /** The direction open to bicycles against the motor one-way (spec 1.2.5), if any. */
  readonly contraflow: 'forward' | 'backward' | null;
}

/**
 * Which directions bicycles may ride. Bicycle-specific rules override the general one-way
 * (spec 1.2.5): oneway:bicycle, contraflow cycleways (cycleway=opposite*, cycleway:*:oneway=-1|no)
 * and bicycle:forward/backward.
 */
export function cyclingDirectionsRule(tags: Tags, motorOneway: -1 | 0 | 1, infrastructure: SideInfrastructure, warnings: Warnings): CyclingDirections {
  let oneway: -1 | 0 | 1 = motorOneway;
  const bicycleOneway = tags['oneway:bicycle'];
  if (bicycleOneway !== undefined) {
    if (bicycleOneway === 'no' || bicycleOneway === 'false' || bicycleOneway === '0') oneway = 0;
    else if (bicycleOneway === 'yes' || bicycleOneway === 'true' || bicycleOneway === '1') oneway = motorOneway === -1 ? -1 : 1;
    else if (bicycleOneway === '-1') oneway = -1;
    else warnings.count('ways with unparseable oneway:bicycle (ignored)', bicycleOneway);
  } else if (infrastructure.contraflow) {
    oneway = 0;
  }
  const backwardVerdict = ACCESS_VALUES[tags['bicycle:backward'] ?? ''];
  const forwardVerdict = ACCESS_VALUES[tags['bicycle:forward'] ?? ''];
  if (motorOneway === 1 && backwardVerdict === 'allowed') oneway = 0;
  if (motorOneway === -1 && forwardVerdict === 'allowed') oneway = 0;
  let forward = oneway !== -1;
  let backward = oneway !== 1;
  if (forwardVerdict === 'denied') forward = false;
  if (backwardVerdict === 'denied') backward = false;
  const contraflow = motorOneway === 1 && backward ? 'backward' : motorOneway === -1 && forward ? 'forward' : null;
  return { forward, backward, contraflow };
}
