import { NODE_ELEVATION_KNOWN, SAFETY_CLASSES, type SafetyClass } from '../../graph/flags.ts';
import type { Position } from '../../geo.ts';
import type { Step } from '../guidance/steps.ts';
import type { RoutingNetwork } from '../network/network.ts';
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

/** `[metres along the route, metres high]` at its start, each node it passes and its end; null heights where no model covers. */
export type ElevationProfile = [number, number | null][];

/**
 * Beyond the spec (`metadata.elevation_profile`): the height of the route where it starts, at
 * every node it passes and where it ends, from the graph's node heights (a start or end part of
 * the way along an edge between its two nodes' heights). Null where a height is not measured
 * (NODE_ELEVATION_KNOWN); no profile at all where none is.
 */
export function elevationProfile(network: RoutingNetwork, paths: readonly RoutedPath[]): ElevationProfile | null {
  const graph = network.graph;
  const heightAt = (node: number): number | null => (graph.nodeFlags[node]! & NODE_ELEVATION_KNOWN ? graph.nodeElevation[node]! : null);
  const along = (edge: number, fraction: number): number | null => {
    if (fraction <= 0) return heightAt(graph.edgeTail[edge]!);
    const head = heightAt(graph.edgeHead[edge]!);
    if (fraction >= 1) return head;
    const tail = heightAt(graph.edgeTail[edge]!);
    return tail === null || head === null ? null : tail + (head - tail) * fraction;
  };
  const profile: ElevationProfile = [];
  let distance = 0;
  const add = (height: number | null): void => {
    const point: [number, number | null] = [Math.round(distance), height === null ? null : round1(height)];
    const last = profile[profile.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) profile.push(point);
  };
  for (const path of paths) {
    path.edges.forEach((edge, index) => {
      if (index === 0) add(along(edge.edge, edge.span[0]));
      distance += edge.length;
      add(along(edge.edge, edge.span[1]));
    });
  }
  return profile.some(([, height]) => height !== null) ? profile : null;
}

export type SafetyBreakdown = Record<SafetyClass | 'pushed', number>;

/** Metres ridden per safety class, and pushed, over cycling paths (beyond the spec: `metadata.safety_breakdown`). */
export function safetyBreakdown(paths: readonly RoutedPath[]): SafetyBreakdown {
  const breakdown = Object.fromEntries([...SAFETY_CLASSES, 'pushed'].map((key) => [key, 0])) as SafetyBreakdown;
  for (const path of paths) for (const edge of path.edges) breakdown[edge.pushed ? 'pushed' : edge.safety] += edge.length;
  for (const key of Object.keys(breakdown) as (SafetyClass | 'pushed')[]) breakdown[key] = Math.round(breakdown[key]);
  return breakdown;
}
