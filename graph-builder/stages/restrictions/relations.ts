import type { RelationMember, Tags } from '../../osm/types.ts';
import { legacyRestrictionCondition, parseConditional } from '../../time-windows.ts';
import type { Warnings } from '../../warnings.ts';

/**
 * Turn restrictions (spec 1.2.4), read from `type=restriction` relations in the form that
 * applies to bicycles, then resolved against the graph's edges as forbidden edge sequences.
 *
 * Which tag applies to a bicycle: `restriction:bicycle` (and its :conditional) when present;
 * else the general `restriction` / `restriction:conditional` unless `except` lists bicycle;
 * restrictions only for other vehicles (`restriction:hgv`, ...) do not apply.
 */

export type RestrictionKind = 'no' | 'only';

export interface RestrictionSpec {
  readonly relationId: number;
  readonly kind: RestrictionKind;
  /** e.g. `no_left_turn`. */
  readonly value: string;
  readonly bicycleSpecific: boolean;
  /** opening_hours expression during which the restriction holds; null = always. */
  readonly condition: string | null;
  readonly from: readonly number[];
  readonly via: { readonly type: 'node'; readonly id: number } | { readonly type: 'ways'; readonly ids: readonly number[] };
  readonly to: readonly number[];
}

const RESTRICTION_VALUE = /^(no|only)_(left_turn|right_turn|straight_on|u_turn|entry|exit)$/;

const listsBicycle = (value: string | undefined): boolean =>
  value !== undefined && value.split(/[;,]/).some((item) => item.trim() === 'bicycle');

/** What the relation says for bicycles, or null (with the reason counted) when nothing applies. */
export function parseRestriction(relationId: number, tags: Tags, members: readonly RelationMember[], warnings: Warnings): RestrictionSpec | null {
  let value: string | undefined;
  let condition: string | null = null;
  let bicycleSpecific = false;
  const conditionalFrom = (key: string): void => {
    const parts = parseConditional(tags[key]!);
    if (parts.length !== 1) {
      warnings.count('restrictions with unparseable conditional (ignored)', tags[key]);
      return;
    }
    value = parts[0]!.value;
    condition = parts[0]!.condition;
  };

  if (tags['restriction:bicycle'] !== undefined) {
    value = tags['restriction:bicycle'];
    bicycleSpecific = true;
  } else if (tags['restriction:bicycle:conditional'] !== undefined) {
    conditionalFrom('restriction:bicycle:conditional');
    bicycleSpecific = true;
  } else if (tags.restriction !== undefined || tags['restriction:conditional'] !== undefined) {
    if (listsBicycle(tags.except)) {
      warnings.count('restrictions with except=bicycle (not applied to bicycles)');
      return null;
    }
    if (tags.restriction !== undefined) value = tags.restriction;
    else conditionalFrom('restriction:conditional');
  } else {
    warnings.count('restrictions for other vehicles only (not applied to bicycles)');
    return null;
  }
  if (value === undefined) return null;
  value = value.trim();
  const match = RESTRICTION_VALUE.exec(value);
  if (!match) {
    warnings.count('restrictions with unknown restriction value (ignored)', value);
    return null;
  }
  condition ??= legacyRestrictionCondition(tags);

  const from = members.filter((m) => m.role === 'from' && m.type === 'way').map((m) => m.ref);
  const to = members.filter((m) => m.role === 'to' && m.type === 'way').map((m) => m.ref);
  const viaNodes = members.filter((m) => m.role === 'via' && m.type === 'node').map((m) => m.ref);
  const viaWays = members.filter((m) => m.role === 'via' && m.type === 'way').map((m) => m.ref);
  const multipleFromAllowed = value === 'no_entry';
  const multipleToAllowed = value === 'no_exit';
  const validVia = (viaNodes.length === 1 && viaWays.length === 0) || (viaNodes.length === 0 && viaWays.length > 0);
  if (from.length === 0 || to.length === 0 || !validVia || (from.length > 1 && !multipleFromAllowed) || (to.length > 1 && !multipleToAllowed)) {
    warnings.count('restrictions with invalid members (ignored)', String(relationId));
    return null;
  }
  return {
    relationId,
    kind: match[1] as RestrictionKind,
    value,
    bicycleSpecific,
    condition,
    from,
    via: viaNodes.length === 1 ? { type: 'node', id: viaNodes[0]! } : { type: 'ways', ids: viaWays },
    to,
  };
}

/** What restriction resolution needs to know about the graph under construction. */
export interface RestrictionGraph {
  /** Dense index of an OSM way, or -1 when the way is not in the graph. */
  wayIndex(wayId: number): number;
  /** Dense index of an OSM node, or -1. */
  nodeIndex(nodeId: number): number;
  /** Segments of a way in way order. */
  waySegments(way: number): readonly number[];
  segmentStart(segment: number): number;
  segmentEnd(segment: number): number;
  /** Cycling edge along (forward) or against the segment's geometry, or -1. */
  cyclingEdge(segment: number, forward: boolean): number;
  /** Cycling edges leaving a node. */
  cyclingEdgesFrom(node: number): readonly number[];
}

export type Resolution = { readonly sequences: number[][] } | { readonly skipped: string };

/** The edge of `way` arriving at `node` (if `arriving`) or leaving it; -1 if none, -2 if ambiguous. */
function edgeAt(graph: RestrictionGraph, way: number, node: number, arriving: boolean): number {
  const found: number[] = [];
  for (const segment of graph.waySegments(way)) {
    if (graph.segmentEnd(segment) === node) {
      const edge = graph.cyclingEdge(segment, arriving);
      if (edge >= 0) found.push(edge);
    }
    if (graph.segmentStart(segment) === node) {
      const edge = graph.cyclingEdge(segment, !arriving);
      if (edge >= 0) found.push(edge);
    }
  }
  if (found.length === 0) return -1;
  return found.length === 1 ? found[0]! : -2;
}

/**
 * Walks a via way from `entry` to its other end: the via edges and the exit node. A via way must
 * be entered at one of its ends; entering in the middle makes the restriction ambiguous.
 */
function traverseViaWay(graph: RestrictionGraph, way: number, entry: number): { edges: number[]; exit: number } | null {
  const segments = graph.waySegments(way);
  if (segments.length === 0) return null;
  const first = graph.segmentStart(segments[0]!);
  const last = graph.segmentEnd(segments[segments.length - 1]!);
  const edges: number[] = [];
  if (entry === first) {
    for (const segment of segments) {
      const edge = graph.cyclingEdge(segment, true);
      if (edge < 0) return null;
      edges.push(edge);
    }
    return { edges, exit: last };
  }
  if (entry === last) {
    for (let i = segments.length - 1; i >= 0; i--) {
      const edge = graph.cyclingEdge(segments[i]!, false);
      if (edge < 0) return null;
      edges.push(edge);
    }
    return { edges, exit: first };
  }
  return null;
}

const endpoints = (graph: RestrictionGraph, way: number): number[] => {
  const segments = graph.waySegments(way);
  return segments.length === 0 ? [] : [graph.segmentStart(segments[0]!), graph.segmentEnd(segments[segments.length - 1]!)];
};

/**
 * Forbidden cycling edge sequences for one restriction. `no_*` gives [from, via..., to];
 * `only_*` gives one sequence per other way out of the last via node, so the router deals only
 * in prohibitions.
 */
export function resolveRestriction(spec: RestrictionSpec, graph: RestrictionGraph): Resolution {
  const fromWays = spec.from.map((id) => graph.wayIndex(id));
  const toWays = spec.to.map((id) => graph.wayIndex(id));
  if (fromWays.some((w) => w < 0) || toWays.some((w) => w < 0)) return { skipped: 'member way not in the cycling graph' };

  const prefixes: { edges: number[]; node: number }[] = [];
  if (spec.via.type === 'node') {
    const via = graph.nodeIndex(spec.via.id);
    if (via < 0) return { skipped: 'via node not in the graph' };
    for (const way of fromWays) {
      const from = edgeAt(graph, way, via, true);
      if (from === -2) return { skipped: 'ambiguous (from way continues through the via node)' };
      if (from >= 0) prefixes.push({ edges: [from], node: via });
    }
  } else {
    const viaWays = spec.via.ids.map((id) => graph.wayIndex(id));
    if (viaWays.some((w) => w < 0)) return { skipped: 'via way not in the cycling graph' };
    for (const way of fromWays) {
      // The from way meets the first via way at one of its ends.
      const junction = endpoints(graph, way).find((node) => viaWays.some((via) => endpoints(graph, via).includes(node)));
      if (junction === undefined) return { skipped: 'via ways do not connect' };
      const from = edgeAt(graph, way, junction, true);
      if (from === -2) return { skipped: 'ambiguous (from way continues through the via way)' };
      if (from < 0) continue;
      const edges = [from];
      let node = junction;
      const remaining = [...viaWays];
      while (remaining.length > 0) {
        const next = remaining.findIndex((via) => endpoints(graph, via).includes(node));
        if (next < 0) return { skipped: 'via ways do not connect' };
        const walked = traverseViaWay(graph, remaining[next]!, node);
        if (!walked) return { skipped: 'via way not passable by bicycle in this direction' };
        edges.push(...walked.edges);
        node = walked.exit;
        remaining.splice(next, 1);
      }
      prefixes.push({ edges, node });
    }
  }
  if (prefixes.length === 0) return { skipped: 'from way cannot be ridden towards the via' };

  const sequences: number[][] = [];
  for (const prefix of prefixes) {
    const targets: number[] = [];
    for (const way of toWays) {
      const to = edgeAt(graph, way, prefix.node, false);
      if (to === -2) return { skipped: 'ambiguous (to way continues through the via)' };
      if (to >= 0) targets.push(to);
    }
    if (spec.kind === 'no') {
      for (const to of targets) sequences.push([...prefix.edges, to]);
    } else {
      if (targets.length === 0) return { skipped: 'only_* target cannot be ridden' };
      for (const out of graph.cyclingEdgesFrom(prefix.node)) {
        if (!targets.includes(out)) sequences.push([...prefix.edges, out]);
      }
    }
  }
  if (sequences.length === 0) return { skipped: 'to way cannot be ridden from the via' };
  return { sequences };
}
