import type { Tags } from '../osm/types.ts';
import type { RuleContext } from './context.ts';

/** Cycle infrastructure along a road (lanes, tracks, shared lanes) and the travel direction each serves. */

/** Cycle infrastructure along a road, weakest first; the best one serving a direction counts. */
export const INFRASTRUCTURE = ['none', 'separate', 'shared_lane', 'share_busway', 'lane', 'track'] as const;
export type Infrastructure = (typeof INFRASTRUCTURE)[number];

const CYCLEWAY_VALUES: Readonly<Record<string, { infrastructure: Infrastructure; contraflow?: boolean }>> = {
  no: { infrastructure: 'none' }, none: { infrastructure: 'none' }, separate: { infrastructure: 'separate' },
  sidepath: { infrastructure: 'separate' }, use_sidepath: { infrastructure: 'separate' },
  shared_lane: { infrastructure: 'shared_lane' }, shared: { infrastructure: 'shared_lane' },
  share_busway: { infrastructure: 'share_busway' }, lane: { infrastructure: 'lane' }, track: { infrastructure: 'track' },
  opposite: { infrastructure: 'none', contraflow: true }, opposite_lane: { infrastructure: 'lane', contraflow: true },
  opposite_track: { infrastructure: 'track', contraflow: true },
  opposite_share_busway: { infrastructure: 'share_busway', contraflow: true },
  // Sub-types used on highway=cycleway itself, not road infrastructure.
  crossing: { infrastructure: 'none' }, sidewalk: { infrastructure: 'none' }, traffic_island: { infrastructure: 'none' },
  link: { infrastructure: 'none' }, asl: { infrastructure: 'none' },
};

export interface SideInfrastructure {
  /** Best infrastructure serving travel along the way's direction. */
  readonly forward: Infrastructure;
  readonly backward: Infrastructure;
  /** Some cycleway tag allows riding against the motor one-way direction. */
  readonly contraflow: boolean;
}

const better = (a: Infrastructure, b: Infrastructure): Infrastructure =>
  INFRASTRUCTURE.indexOf(a) >= INFRASTRUCTURE.indexOf(b) ? a : b;

/**
 * Cycle infrastructure per travel direction from cycleway, cycleway:both/left/right and their
 * :oneway and :separation sub-keys. On a two-way road the lane on the driving side serves the
 * forward direction (left in London, right in the US); on a one-way road every lane serves the
 * motor direction unless tagged otherwise. A lane with a physical separation counts as a track.
 */
export function cyclewayRule(tags: Tags, motorOneway: -1 | 0 | 1, context: RuleContext): SideInfrastructure {
  let forward: Infrastructure = 'none';
  let backward: Infrastructure = 'none';
  let contraflow = false;
  const motorDirection = motorOneway === -1 ? 'backward' : 'forward';
  const serve = (direction: 'forward' | 'backward' | 'both', infrastructure: Infrastructure): void => {
    if (direction !== 'backward') forward = better(forward, infrastructure);
    if (direction !== 'forward') backward = better(backward, infrastructure);
  };
  const read = (key: string, side: 'left' | 'right' | 'both'): void => {
    const raw = tags[key];
    if (raw === undefined) return;
    const entry = CYCLEWAY_VALUES[raw.split(';')[0]!.trim()];
    if (!entry) {
      context.warnings.count('ways with unknown cycleway value (ignored)', `${key}=${raw}`);
      return;
    }
    let infrastructure = entry.infrastructure;
    const separation = tags[`${key}:separation`] ?? tags[`${key}:separation:left`] ?? tags[`${key}:separation:right`];
    if (infrastructure === 'lane' && separation !== undefined && separation !== 'no' && separation !== 'none') {
      infrastructure = 'track';
    }
    if (entry.contraflow) {
      contraflow = true;
      serve(motorDirection === 'forward' ? 'backward' : 'forward', infrastructure);
      return;
    }
    const sideOneway = tags[`${key}:oneway`];
    if (sideOneway === 'no') {
      if (motorOneway !== 0) contraflow = true;
      serve('both', infrastructure);
    } else if (sideOneway === '-1') {
      if (motorOneway !== 0) contraflow = true;
      serve(motorDirection === 'forward' ? 'backward' : 'forward', infrastructure);
    } else if (motorOneway !== 0) {
      serve(motorDirection, infrastructure);
    } else if (side === 'both') {
      serve('both', infrastructure);
    } else {
      serve(side === context.drivingSide ? 'forward' : 'backward', infrastructure);
    }
  };
  read('cycleway', 'both');
  read('cycleway:both', 'both');
  read('cycleway:left', 'left');
  read('cycleway:right', 'right');
  return { forward, backward, contraflow };
}
