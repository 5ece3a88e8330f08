import type { CityId } from './cities/index.ts';
import type { LonLat } from './geo.ts';

/**
 * What an accepted road report does to routing (spec 4.4, 1: "reports feed back into routing in
 * real time"). The reports pipeline decides when a report is accepted; on acceptance it writes one
 * avoidance item per report into the `routeAvoidances` table, in the same transaction as the
 * report's status change. Routers read the items of their city (functions/graphs/report-overlay.ts)
 * and apply them through the costing's overlay; the nightly rebuild folds permanent closures and
 * one-way reports into the graph's own tags (graph-builder/nightly-handler.ts). This module is the
 * contract between the three: the item's shape, which reports have which effect, and what a
 * permanent one becomes in the graph.
 */

/**
 * - `closed`: the road is physically blocked; the located way may not be ridden (either way).
 * - `one_way`: riding against the located way's drawn direction is illegal (OSM draws one-way
 *   ways in their legal direction; the reviewer may say the opposite with `against_geometry`).
 * - `no_manoeuvre`: the road is not missing, the turn onto it is: entering the located way at the
 *   junction nearest the report is forbidden, the way itself stays usable.
 * - `unsafe`: the located way is a safety hazard; its cost rises (more for supersafe).
 */
export type AvoidanceEffect = 'closed' | 'one_way' | 'no_manoeuvre' | 'unsafe';

/** The `routeAvoidances` item: partition key `city`, sort key `report_id`. */
export interface AvoidanceItem {
  city: CityId;
  report_id: string;
  effect: AvoidanceEffect;
  issue_type: string;
  issue_subtype: string | null;
  /** Where the report was filed, [lon, lat]. */
  location: LonLat;
  /** The way the analysis located the report on (OSM way id), and its name; null when none was found. */
  way_id: number | null;
  road_name: string | null;
  /** For `one_way`: the legal direction is against the way's drawn direction. */
  against_geometry?: boolean;
  /** ISO 8601 instant the avoidance ends (a temporary closure's `--until`); null for no end. */
  until: string | null;
  accepted_at: string;
  /** Unix seconds after which DynamoDB may delete the item (a day after `until`); absent without one. */
  expires_at?: number;
}

/** Physically blocked (spec 4.4): the road itself is impassable. */
const BLOCKED_SUBTYPES: ReadonlySet<string> = new Set(['private_locked', 'barrier_gate', 'no_cycling_zone', 'temporary_closure', 'permanent_closure']);

/**
 * The effect an accepted report has on routing, or null when it has none (bad routing, unclear
 * instructions and unpleasant roads inform people, not the router; a `road_closed` report without
 * a recognised subtype says too little about how the road is closed).
 */
export function avoidanceEffect(issueType: string, issueSubtype: string | null): AvoidanceEffect | null {
  if (issueType === 'road_unsafe') return 'unsafe';
  if (issueType !== 'road_closed' || issueSubtype === null) return null;
  if (BLOCKED_SUBTYPES.has(issueSubtype)) return 'closed';
  if (issueSubtype === 'one_way') return 'one_way';
  if (issueSubtype === 'road_missing') return 'no_manoeuvre';
  return null;
}

/** A temporary closure ends; everything else stays until the nightly rebuild folds it in or a reviewer lifts it. */
export const isPermanent = (item: Pick<AvoidanceItem, 'until'>): boolean => item.until === null;

/**
 * The tags a permanent avoidance lays over its way when the nightly rebuild folds it into the
 * graph: a closed road is closed to bicycles, a one-way report makes the way one-way for them
 * (along its drawing, or against it). Removed turns and hazards stay overlay effects (the graph
 * has no tag for either); temporary ones stay too, and so does anything without a located way.
 */
export function foldedTags(item: Pick<AvoidanceItem, 'effect' | 'until' | 'way_id' | 'against_geometry'>): Readonly<Record<string, string>> | null {
  if (!isPermanent(item) || item.way_id === null) return null;
  if (item.effect === 'closed') return { bicycle: 'no' };
  if (item.effect === 'one_way') return { 'oneway:bicycle': item.against_geometry ? '-1' : 'yes' };
  return null;
}
