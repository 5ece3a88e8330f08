import { WALK_CARRIAGEWAY, WALK_CROSSING, WALK_PATH, WALK_PAVEMENT } from '../../core/graph/flags.ts';
import type { Tags } from '../osm/types.ts';
import type { Warnings } from '../warnings.ts';
import { mostSpecific } from './access.ts';
import type { HighwayResult } from './highways.ts';

/** The walking network and the kind of way a walker is on (spec 1.2.10). */

export interface WalkingResult {
  readonly allowed: boolean;
  readonly kind: number;
}

const sidewalkSides = (tags: Tags): string[] => {
  const general = tags.sidewalk ?? tags['sidewalk:both'];
  const sides: string[] = [];
  if (general !== undefined) {
    if (general === 'left' || general === 'right' || general === 'yes' || general === 'both') sides.push('yes');
    else sides.push(general.includes('separate') ? 'separate' : general);
  }
  for (const side of ['sidewalk:left', 'sidewalk:right']) {
    const value = tags[side];
    if (value !== undefined) sides.push(value.includes('separate') ? 'separate' : value);
  }
  return sides;
};

/**
 * The walking network (spec 1.2.10): footways, paths, pedestrian streets, steps and crossings;
 * the carriageway only where no separate pavement is mapped (sidewalk=separate or foot=use_sidepath
 * takes the road out of the walking network). One-way never applies to walking. A way under
 * construction (`highway=construction`) is a building site: closed to walkers unless `foot=*`
 * opens it (a way kept open through the works).
 */
export function walkingRule(tags: Tags, { highway, rule, underConstruction }: HighwayResult, warnings: Warnings): WalkingResult {
  const verdict = mostSpecific(tags, ['foot', 'access'], warnings);
  let allowed = rule.walking && !underConstruction;
  if (verdict === 'denied') allowed = false;
  else if (underConstruction) allowed = verdict === 'allowed' && tags.foot !== undefined;
  // access=yes does not open a cycleway to walkers; foot=* or a segregated path does.
  else if (verdict === 'allowed' && (tags.foot !== undefined || rule.kind === 'road')) allowed = true;
  if (highway === 'cycleway' && !underConstruction && tags.segregated !== undefined && tags.foot !== 'no') allowed = true;
  if (highway === 'cycleway' || highway === 'footway' || highway === 'path') {
    const crossing = tags.footway === 'crossing' || tags.cycleway === 'crossing' || tags.path === 'crossing';
    return { allowed, kind: crossing ? WALK_CROSSING : WALK_PATH };
  }
  if (rule.kind === 'path' || highway === 'living_street' || highway === 'track') return { allowed, kind: WALK_PATH };
  const sides = sidewalkSides(tags);
  if (sides.includes('separate') && !sides.includes('yes')) allowed = false;
  return { allowed, kind: sides.includes('yes') ? WALK_PAVEMENT : WALK_CARRIAGEWAY };
}
