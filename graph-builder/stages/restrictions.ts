import {
  EDGE_CYCLING, EDGE_RESTRICTION_FROM, RESTRICTION_BICYCLE_SPECIFIC, RESTRICTION_FROM_ONLY, RESTRICTION_SAME_CYCLEWAY, RESTRICTION_VIA_WAY,
  ROAD_CLASSES, SAFETY_CYCLEWAY, roadClassOf, safetyClassOf,
} from '../../core/graph/flags.ts';
import type { TimeWindowCompiler } from '../time-windows.ts';
import type { Csr, EdgeArrays } from './edge-arrays.ts';
import type { GraphNodeIndex, SegmentEdges, SegmentTable } from './edges.ts';
import { routeNamesOfWay, type WayRouteMembership } from './plan-ways.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';
import { resolveRestriction, type RestrictionGraph, type RestrictionSpec } from './restrictions/relations.ts';

/**
 * Stage `restrictions`: turn restriction relations resolved (restrictions/relations.ts) into
 * forbidden sequences of cycling edges; and, once edges have their final numbers, stage
 * `restriction-table` lays those sequences out as the graph's restriction sections.
 */

export interface PendingRestriction {
  /** From edge, via edges, to edge, in the numbering of the `edges` stage. */
  readonly edges: readonly number[];
  readonly flags: number;
  /** 1 + time window, 0 for always. */
  readonly window: number;
}

export interface RestrictionsInput {
  readonly specs: readonly RestrictionSpec[];
  readonly ways: CollectedWays;
  readonly wayKept: Uint8Array;
  readonly nodes: CollectedNodes;
  readonly graphNodes: GraphNodeIndex;
  readonly segments: SegmentTable;
  readonly segmentEdges: SegmentEdges;
  readonly edges: Pick<EdgeArrays, 'segment'>;
  /** Edge flags as they stand after `pavements`. */
  readonly edgeFlags: Uint32Array;
  readonly csr: Pick<Csr, 'firstOut'>;
  readonly wayRoutes: ReadonlyMap<number, WayRouteMembership>;
  readonly windows: TimeWindowCompiler;
}

export interface RestrictionsOutput {
  readonly pending: readonly PendingRestriction[];
  readonly applied: number;
  readonly conditional: number;
  readonly bicycleSpecific: number;
  readonly viaWay: number;
  /** Relations not applied, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
}

export interface RestrictionSummary {
  readonly relations: number;
  readonly applied: number;
  readonly sequences: number;
  readonly conditional: number;
  readonly bicycleSpecific: number;
  readonly viaWay: number;
  readonly sameCyclewayExempt: number;
  readonly skipped: Readonly<Record<string, number>>;
}

export function resolveRestrictions(input: RestrictionsInput): RestrictionsOutput {
  const { specs, windows } = input;
  const graph = restrictionGraph(input);
  const sameCycleway = sameCyclewayTest(input);
  const counts = { applied: 0, conditional: 0, bicycleSpecific: 0, viaWay: 0 };
  const skipped: Record<string, number> = {};
  const pending: PendingRestriction[] = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    let window = 0;
    if (spec.condition !== null) {
      const compiled = windows.compile(spec.condition, 'restrictions with an unparseable time condition (ignored)');
      if (compiled === null) {
        skipped['unparseable condition'] = (skipped['unparseable condition'] ?? 0) + 1;
        continue;
      }
      window = compiled + 1;
    }
    const resolution = resolveRestriction(spec, graph);
    if ('skipped' in resolution) {
      skipped[resolution.skipped] = (skipped[resolution.skipped] ?? 0) + 1;
      continue;
    }
    counts.applied++;
    if (window) counts.conditional++;
    if (spec.bicycleSpecific) counts.bicycleSpecific++;
    if (spec.via.type === 'ways') counts.viaWay++;
    for (const sequence of resolution.sequences) {
      let flags = (spec.kind === 'only' ? RESTRICTION_FROM_ONLY : 0) | (spec.bicycleSpecific ? RESTRICTION_BICYCLE_SPECIFIC : 0)
        | (sequence.length > 2 ? RESTRICTION_VIA_WAY : 0);
      if (spec.kind === 'no' && sameCycleway(sequence[0]!, sequence[sequence.length - 1]!)) flags |= RESTRICTION_SAME_CYCLEWAY;
      const key = `${sequence.join(',')}|${flags}|${window}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pending.push({ edges: sequence, flags, window });
    }
  }
  return { pending, ...counts, skipped };
}

/** The graph as restriction resolution sees it: kept ways, graph nodes, cycling edges. */
function restrictionGraph({ ways, wayKept, nodes, graphNodes, segments, segmentEdges, edgeFlags, csr }: RestrictionsInput): RestrictionGraph {
  const isCycling = (e: number): boolean => (edgeFlags[e]! & EDGE_CYCLING) !== 0;
  return {
    wayIndex: (id) => {
      const w = ways.index.get(id);
      return w >= 0 && wayKept[w] ? w : -1;
    },
    nodeIndex: (id) => {
      const d = nodes.index.get(id);
      return d >= 0 ? graphNodes.of[d]! : -1;
    },
    waySegments: (w) => {
      const list: number[] = [];
      for (let s = segments.wayFirst[w]!; s < segments.wayFirst[w + 1]!; s++) list.push(s);
      return list;
    },
    segmentStart: (s) => segments.start[s]!,
    segmentEnd: (s) => segments.end[s]!,
    cyclingEdge: (s, forward) => {
      const e = forward ? segmentEdges.forward[s]! : segmentEdges.backward[s]!;
      return e >= 0 && isCycling(e) ? e : -1;
    },
    cyclingEdgesFrom: (v) => {
      const list: number[] = [];
      for (let e = csr.firstOut[v]!; e < csr.firstOut[v + 1]!; e++) if (isCycling(e)) list.push(e);
      return list;
    },
  };
}

/**
 * Spec 1.2.4: both approaches are on the same cycleway: a cycle path of its own (not a road with
 * a lane or track, whose restrictions bind its riders too), the same way, the same named route
 * or the same name.
 */
function sameCyclewayTest({ ways, segments, edges, edgeFlags, wayRoutes }: RestrictionsInput): (from: number, to: number) => boolean {
  const cyclePathClasses = new Set([ROAD_CLASSES.indexOf('cycleway'), ROAD_CLASSES.indexOf('path')]);
  return (from, to) => {
    const fromFlags = edgeFlags[from]!;
    const toFlags = edgeFlags[to]!;
    if (safetyClassOf(fromFlags) !== SAFETY_CYCLEWAY || safetyClassOf(toFlags) !== SAFETY_CYCLEWAY) return false;
    if (!cyclePathClasses.has(roadClassOf(fromFlags)) || !cyclePathClasses.has(roadClassOf(toFlags))) return false;
    const fromWay = segments.way[edges.segment[from]!]!;
    const toWay = segments.way[edges.segment[to]!]!;
    if (fromWay === toWay) return true;
    const fromRoutes = routeNamesOfWay(ways, wayRoutes, fromWay);
    for (const name of routeNamesOfWay(ways, wayRoutes, toWay)) if (fromRoutes.has(name)) return true;
    const name = ways.nameIds[fromWay]!;
    return name !== 0 && name === ways.nameIds[toWay];
  };
}

export interface RestrictionTableInput {
  readonly pending: readonly PendingRestriction[];
  /** Final number of each edge of the `edges` stage, -1 for edges dropped. */
  readonly edgeNewIndex: Int32Array;
  /** Final edge flags. */
  readonly edgeFlags: Uint32Array;
}

export interface RestrictionTable {
  readonly restrictionFirst: Uint32Array;
  readonly restrictionEdges: Uint32Array;
  readonly restrictionFlags: Uint8Array;
  readonly restrictionWindow: Uint16Array;
  /** The edge flags with every first edge of a sequence marked. */
  readonly edgeFlags: Uint32Array;
  readonly sameCyclewayExempt: number;
}

/** The sequences whose edges all survived, in final numbering, sorted by first edge (then length). */
export function restrictionTable({ pending, edgeNewIndex, edgeFlags }: RestrictionTableInput): RestrictionTable {
  const flags = edgeFlags.slice();
  const final = pending
    .map((r) => ({ ...r, edges: r.edges.map((e) => edgeNewIndex[e]!) }))
    .filter((r) => r.edges.every((e) => e >= 0 && (flags[e]! & EDGE_CYCLING) !== 0))
    .sort((x, y) => x.edges[0]! - y.edges[0]! || x.edges.length - y.edges.length);
  const restrictionFirst = new Uint32Array(final.length + 1);
  const restrictionEdges: number[] = [];
  const restrictionFlags = new Uint8Array(final.length);
  const restrictionWindow = new Uint16Array(final.length);
  final.forEach((r, t) => {
    restrictionEdges.push(...r.edges);
    restrictionFirst[t + 1] = restrictionEdges.length;
    restrictionFlags[t] = r.flags;
    restrictionWindow[t] = r.window;
    flags[r.edges[0]!] = flags[r.edges[0]!]! | EDGE_RESTRICTION_FROM;
  });
  return {
    restrictionFirst, restrictionEdges: Uint32Array.from(restrictionEdges), restrictionFlags, restrictionWindow, edgeFlags: flags,
    sameCyclewayExempt: final.filter((r) => r.flags & RESTRICTION_SAME_CYCLEWAY).length,
  };
}
