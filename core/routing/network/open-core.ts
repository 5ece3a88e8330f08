import { EDGE_CYCLING, EDGE_RESTRICTION_FROM, EDGE_WALKING, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, RESTRICTION_SAME_CYCLEWAY } from '../../graph/flags.ts';
import type { Graph } from '../../graph/layout.ts';
import { reverseEdgeOf } from '../../graph/reverse-edge.ts';
import { DisjointSets } from './disjoint-sets.ts';
import { stronglyConnectedComponents } from './strongly-connected.ts';

/**
 * The open core of each region of a graph: per edge, whether it lies in the largest network of
 * its region that every departure leaves open and connected, so that from any core edge any other
 * core edge of the region can be reached at any hour. Snapping (core/routing/snap/snap.ts) then
 * only needs to know that a candidate reaches its region's core (a start) or is reached from it
 * (an end) over the ways open at the departure: the rest of the route exists.
 *
 * A region is a piece of the profile's network joined by its ways at all (closures, barriers and
 * restrictions aside): a city built from separate extracts, as London is, has several, and each
 * has a core. Its core, for cycling, is its largest strongly connected set of edges under every
 * rule that may ever hold: edges no time rule closes, turns through nodes no barrier closes to
 * bicycles, no U-turn but at a dead end, and no turn a restriction forbids at any hour (a via-way
 * restriction forbids its first turn here: stricter than the rule, so the core stays safe). For
 * walking, which ignores one-way and restrictions, it is the largest set of never-closed walking
 * edges joined through nodes no barrier closes to pedestrians.
 *
 * One byte per edge, computed when the graph is built (stage `open-core`) and read in place by the
 * router; a graph built without it, or under another definition, has it computed on load.
 */

/** Bits of the open-core array: the edge is in its region's core for the profile. */
export const OPEN_CORE_CYCLING = 1;
export const OPEN_CORE_WALKING = 2;

/**
 * Names what `computeOpenCore` computes, recorded in the graph header (`open_core`) beside the
 * stored section: change it whenever the definition changes, so that a router never trusts a
 * stored open core computed under another one.
 */
export const OPEN_CORE_DEFINITION = 'per-region-strongly-connected/1';

/** The graph's stored open core when it was computed under today's definition, else null. */
export function storedOpenCore(graph: Graph): Uint8Array | null {
  return graph.header.open_core === OPEN_CORE_DEFINITION && graph.openCore.length === graph.edgeCount ? graph.openCore : null;
}

export function computeOpenCore(graph: Graph): Uint8Array {
  const core = new Uint8Array(graph.edgeCount);
  markCyclingCore(graph, core);
  markWalkingCore(graph, core);
  return core;
}

/**
 * Edges joined at the nodes they share: those `included`, at every node `passable` lets through
 * (union-find, one pass over the nodes).
 */
function joinedAtNodes(graph: Graph, included: (edge: number) => boolean, passable: (node: number) => boolean): DisjointSets {
  const sets = new DisjointSets(graph.edgeCount);
  const { firstOut, firstIn, inEdges } = graph;
  for (let node = 0; node < graph.nodeCount; node++) {
    if (!passable(node)) continue;
    let first = -1;
    for (let edge = firstOut[node]!, end = firstOut[node + 1]!; edge < end; edge++) {
      if (!included(edge)) continue;
      if (first < 0) first = edge;
      else sets.union(edge, first);
    }
    for (let i = firstIn[node]!, end = firstIn[node + 1]!; i < end; i++) {
      const edge = inEdges[i]!;
      if (!included(edge)) continue;
      if (first < 0) first = edge;
      else sets.union(edge, first);
    }
  }
  return sets;
}

/** Per edge, its region: the profile's edges joined at any node they share. */
function regionsOf(graph: Graph, usableFlag: number): DisjointSets {
  return joinedAtNodes(graph, (edge) => (graph.edgeFlags[edge]! & usableFlag) !== 0, () => true);
}

/**
 * Marks, per region, the members of its largest group. `groups` gives each edge's group, a number
 * below the edge count, or -1 for an edge in none.
 */
function markLargestPerRegion(graph: Graph, regions: DisjointSets, groups: Int32Array, core: Uint8Array, bit: number): void {
  const edgeCount = graph.edgeCount;
  const size = new Int32Array(edgeCount);
  for (let edge = 0; edge < edgeCount; edge++) if (groups[edge]! >= 0) size[groups[edge]!]!++;
  // Per region (by its representative edge), its largest group.
  const region = new Int32Array(edgeCount);
  const largest = new Int32Array(edgeCount).fill(-1);
  for (let edge = 0; edge < edgeCount; edge++) {
    const group = groups[edge]!;
    if (group < 0) continue;
    region[edge] = regions.find(edge);
    const best = largest[region[edge]!]!;
    if (best < 0 || size[group]! > size[best]!) largest[region[edge]!] = group;
  }
  for (let edge = 0; edge < edgeCount; edge++) {
    const group = groups[edge]!;
    if (group >= 0 && largest[region[edge]!] === group) core[edge]! |= bit;
  }
}

/** The turns some restriction forbids at some hour, by from edge (the set-aside same-cycleway ones excepted). */
function everRestrictedTurns(graph: Graph): Map<number, number[]> {
  const forbidden = new Map<number, number[]>();
  for (let restriction = 0; restriction < graph.restrictionFlags.length; restriction++) {
    if (graph.restrictionFlags[restriction]! & RESTRICTION_SAME_CYCLEWAY) continue;
    const start = graph.restrictionFirst[restriction]!;
    const from = graph.restrictionEdges[start]!;
    const list = forbidden.get(from) ?? [];
    list.push(graph.restrictionEdges[start + 1]!);
    forbidden.set(from, list);
  }
  return forbidden;
}

function markCyclingCore(graph: Graph, core: Uint8Array): void {
  const { edgeFlags, edgeClosure, edgeHead, firstOut, nodeFlags } = graph;
  const open = (edge: number) => (edgeFlags[edge]! & EDGE_CYCLING) !== 0 && edgeClosure[edge] === 0;
  const forbidden = everRestrictedTurns(graph);
  const allowed = (edge: number, next: number): boolean => {
    if (!open(next)) return false;
    const node = edgeHead[edge]!;
    if (nodeFlags[node]! & NODE_BARRIER_NO_CYCLING) return false;
    if (next === reverseEdgeOf(graph, edge) && firstOut[node + 1]! - firstOut[node]! > 1) return false;
    return !(edgeFlags[edge]! & EDGE_RESTRICTION_FROM) || !forbidden.get(edge)?.includes(next);
  };
  const component = stronglyConnectedEdges(graph, open, allowed);
  markLargestPerRegion(graph, regionsOf(graph, EDGE_CYCLING), component, core, OPEN_CORE_CYCLING);
}

function markWalkingCore(graph: Graph, core: Uint8Array): void {
  const open = (edge: number) => (graph.edgeFlags[edge]! & EDGE_WALKING) !== 0 && graph.edgeClosure[edge] === 0;
  const joined = joinedAtNodes(graph, open, (node) => !(graph.nodeFlags[node]! & NODE_BARRIER_NO_WALKING));
  const groups = new Int32Array(graph.edgeCount);
  for (let edge = 0; edge < graph.edgeCount; edge++) groups[edge] = open(edge) ? joined.find(edge) : -1;
  markLargestPerRegion(graph, regionsOf(graph, EDGE_WALKING), groups, core, OPEN_CORE_WALKING);
}

/**
 * Strongly connected sets of the edge graph whose arcs are the allowed turns: per edge its
 * component's id, -1 for an edge that is not `open`. An arc from an edge is the out-edge of its
 * head node it turns onto, so the edge graph needs no arrays of its own.
 */
function stronglyConnectedEdges(graph: Graph, open: (edge: number) => boolean, allowed: (edge: number, next: number) => boolean): Int32Array {
  const { edgeCount, edgeHead, firstOut } = graph;
  const edgeGraph = {
    vertexCount: edgeCount,
    arcsBegin: (edge: number) => firstOut[edgeHead[edge]!]!,
    arcsEnd: (edge: number) => firstOut[edgeHead[edge]! + 1]!,
    head: (next: number) => next,
  };
  return stronglyConnectedComponents(edgeGraph, allowed, open).component;
}
