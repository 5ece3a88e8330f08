import { SAFETY_CLASSES, type SafetyClass } from '../../graph/flags.ts';
import type { Position } from '../../geo.ts';
import type { Step } from '../guidance/steps.ts';
import { appendPositions, type RoutedPath, type Stop } from '../path/path.ts';

/** The shapes routes and legs take in responses (spec 4.1), from their steps and paths. */

export interface RouteBody {
  distance: number;
  duration: number;
  elevation_gain: number;
  elevation_loss: number;
  safety_code: number;
  geometry: { type: 'LineString'; coordinates: Position[] };
  steps: Step[];
  stops: Stop[];
}

export const round1 = (value: number): number => Math.round(value * 10) / 10;

/**
 * The deprecated `safety_code` of a route or leg (spec 4.1: the mean of its steps' codes), over
 * the steps that carry a safety classification: the ridden steps. Arrive steps and steps where
 * the bike is pushed (walking steps) have none and do not count; a route with no ridden step
 * (walking) has 0.
 */
export function meanSafetyCode(steps: readonly Step[]): number {
  const ridden = steps.filter((step) => step.safety_classification !== undefined);
  return ridden.length ? ridden.reduce((sum, step) => sum + step.safety_code, 0) / ridden.length : 0;
}

/** A route or leg body from its steps and the paths they were built from (stitched in order). */
export function routeBody(steps: Step[], paths: readonly RoutedPath[]): RouteBody {
  const coordinates: Position[] = [];
  for (const path of paths) appendPositions(coordinates, path.coordinates);
  if (coordinates.length === 1) coordinates.push(coordinates[0]!);
  const distance = paths.reduce((sum, path) => sum + path.distance, 0);
  return {
    distance: round1(distance),
    duration: round1(paths.reduce((sum, path) => sum + path.duration, 0)),
    elevation_gain: round1(paths.reduce((sum, path) => sum + path.ascent, 0)),
    elevation_loss: round1(paths.reduce((sum, path) => sum + path.descent, 0)),
    safety_code: meanSafetyCode(steps),
    geometry: { type: 'LineString', coordinates },
    steps,
    stops: paths.flatMap((path) => path.stops),
  };
}

export type SafetyBreakdown = Record<SafetyClass | 'pushed', number>;

/** Metres ridden per safety class, and pushed, over cycling paths (beyond the spec: `metadata.safety_breakdown`). */
export function safetyBreakdown(paths: readonly RoutedPath[]): SafetyBreakdown {
  const breakdown = Object.fromEntries([...SAFETY_CLASSES, 'pushed'].map((key) => [key, 0])) as SafetyBreakdown;
  for (const path of paths) for (const edge of path.edges) breakdown[edge.pushed ? 'pushed' : edge.safety] += edge.length;
  for (const key of Object.keys(breakdown) as (SafetyClass | 'pushed')[]) breakdown[key] = Math.round(breakdown[key]);
  return breakdown;
}
