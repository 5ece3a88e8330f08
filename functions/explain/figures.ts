import { EDGE_JUNCTION_CONTROLLED, SAFETY_BUSY, SAFETY_MODERATE, safetyClassOf } from '../../core/graph/flags.ts';
import { CROSSES_MODERATE, type RoutingNetwork } from '../../core/routing/network/network.ts';
import type { RoutedPath } from '../../core/routing/path/path.ts';

/**
 * What can be said about a route, measured on its path: the figures the explanation of the safer
 * route is chosen from (explain.ts) and that its sentence may claim, nothing else.
 */

export interface RouteFigures {
  /** Metres and seconds, as the directions response gives them. */
  distance: number;
  duration: number;
  /** Metres ridden on busy roads and on paths shared with pedestrians. */
  busy_shared: number;
  /** Metres ridden on moderately busy roads. */
  moderate: number;
  /** Metres ridden (not pushed). */
  ridden: number;
  /** Metres ridden on lit ways. */
  lit: number;
  /** Metres ridden on each signed cycle route, by its name. */
  signed: Record<string, number>;
  /** Metres ridden on busy roads and shared paths, by the way's name (named ways only). */
  risky_by_road: Record<string, number>;
  /**
   * Times the route crosses or joins a main (busy or moderately busy) road from a quieter way, at
   * a junction whose approach signals or an all-way stop control, and without.
   */
  crossings: { controlled: number; uncontrolled: number };
  /** Metres climbed, as the directions route's `elevation_gain` (0 where no elevation model covers the city). */
  climb: number;
}

const add = (record: Record<string, number>, key: string, metres: number) => {
  record[key] = (record[key] ?? 0) + metres;
};

export function measureRoute(network: RoutingNetwork, paths: readonly RoutedPath[]): RouteFigures {
  const graph = network.graph;
  const figures: RouteFigures = {
    distance: 0,
    duration: 0,
    busy_shared: 0,
    moderate: 0,
    ridden: 0,
    lit: 0,
    signed: {},
    risky_by_road: {},
    crossings: { controlled: 0, uncontrolled: 0 },
    climb: 0,
  };
  for (const path of paths) {
    figures.distance += path.distance;
    figures.duration += path.duration;
    figures.climb += path.ascent;
    path.edges.forEach((edge, index) => {
      if (!edge.pushed) {
        figures.ridden += edge.length;
        if (edge.lit === true) figures.lit += edge.length;
        if (edge.safety === 'busy' || edge.safety === 'shared') {
          figures.busy_shared += edge.length;
          if (edge.name) add(figures.risky_by_road, edge.name, edge.length);
        }
        if (edge.safety === 'moderate') figures.moderate += edge.length;
        for (const route of edge.cycleRoutes) add(figures.signed, route, edge.length);
      }
      // The same junctions the supersafe costing penalises (core/routing/costing/cycling-costing.ts transitionSeconds).
      const previous = path.edges[index - 1];
      if (!previous || previous.pushed || edge.pushed) return;
      const from = graph.edgeFlags[previous.edge]!;
      const fromClass = safetyClassOf(from);
      if (fromClass === SAFETY_BUSY || fromClass === SAFETY_MODERATE) return;
      if (network.busiestRoadAt(graph.edgeHead[previous.edge]!) < CROSSES_MODERATE) return;
      if (from & EDGE_JUNCTION_CONTROLLED) figures.crossings.controlled++;
      else figures.crossings.uncontrolled++;
    });
  }
  return figures;
}

/** Figures as answered: metres and seconds to a tenth, per-name metres to the metre. */
export function roundedFigures(figures: RouteFigures): RouteFigures {
  const tenth = (value: number) => Math.round(value * 10) / 10;
  const whole = (record: Record<string, number>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, Math.round(value)]));
  return {
    distance: tenth(figures.distance),
    duration: tenth(figures.duration),
    busy_shared: Math.round(figures.busy_shared),
    moderate: Math.round(figures.moderate),
    ridden: Math.round(figures.ridden),
    lit: Math.round(figures.lit),
    signed: whole(figures.signed),
    risky_by_road: whole(figures.risky_by_road),
    crossings: { ...figures.crossings },
    climb: tenth(figures.climb),
  };
}
