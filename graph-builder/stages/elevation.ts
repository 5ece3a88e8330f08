import { haversineMetresE7 } from '../../core/geo.ts';
import type { ElevationSource, GraphHeader } from '../../core/graph/layout.ts';
import type { Warnings } from '../warnings.ts';
import type { Csr, EdgeArrays } from './edge-arrays.ts';
import type { GraphNodeIndex, SegmentTable } from './edges.ts';
import { OSM_ELEVATION_MIN_COVERAGE, type ElevationModel } from './elevation/models.ts';
import type { CollectedNodes } from './read/collect.ts';

/**
 * Stage `elevation`: a height for every node and the climb and descent of every segment.
 *
 * A point's height is the first of the city's models (best first) that covers it, sampled
 * bilinearly; surface models were smoothed when read (elevation/models.ts), so one roof or
 * tree does not raise a street. A node takes the height at its point. Along each segment the
 * model is sampled every PROFILE_STEP_METRES between its two nodes' heights and the profile is
 * smoothed along the way (a moving mean over the model's `smoothingMetres` either side, its ends
 * held at the nodes' heights); climb and descent are summed along that profile.
 *
 * Nodes no model covers take OSM `ele` where at least half the nodes carry one; the rest take the
 * mean of their neighbours', nearest known nodes first (so a stretch beyond a model's edge is
 * level, not a cliff to 0), and carry no NODE_ELEVATION_KNOWN flag; segments touching them climb
 * nothing. With nothing known, every height is 0.
 */

/** Spacing of the samples taken along each segment, metres. */
export const PROFILE_STEP_METRES = 10;

export interface ElevationInput {
  readonly models: readonly ElevationModel[];
  readonly nodes: Pick<CollectedNodes, 'lonE7' | 'latE7' | 'osmElevation'>;
  readonly graphNodes: Pick<GraphNodeIndex, 'count' | 'of'>;
  readonly segments: Pick<SegmentTable, 'count' | 'start' | 'end' | 'pointFirst' | 'points'>;
  readonly nodeCount: number;
  readonly denseOfNode: Uint32Array;
  readonly segmentNew: Int32Array;
  readonly liveSegments: number;
  readonly edges: Pick<EdgeArrays, 'head' | 'tail'>;
  readonly csr: Pick<Csr, 'firstOut' | 'firstIn' | 'inEdges'>;
  readonly warnings: Warnings;
}

export interface ElevationOutput {
  readonly nodeElevation: Float32Array;
  /** 1 where the node's height was measured (a model or OSM `ele`), 0 where filled in. */
  readonly nodeElevationKnown: Uint8Array;
  /** Decimetres climbed and descended along each segment's geometry, in final numbering. */
  readonly segmentAscent: Uint16Array;
  readonly segmentDescent: Uint16Array;
  readonly summary: GraphHeader['elevation'];
}

export function nodeElevations(input: ElevationInput): ElevationOutput {
  const { models, nodes, nodeCount, denseOfNode } = input;
  let osmTagged = 0;
  for (let v = 0; v < nodeCount; v++) if (nodes.osmElevation.has(denseOfNode[v]!)) osmTagged++;
  const useOsm = nodeCount > 0 && osmTagged / nodeCount >= OSM_ELEVATION_MIN_COVERAGE;
  const nodeElevation = new Float32Array(nodeCount);
  const nodeElevationKnown = new Uint8Array(nodeCount);
  const nodesBySource: Record<ElevationSource, number> = { dem: 0, osm: 0, flat: 0 };
  const nodesByModel = models.map(() => 0);
  for (let v = 0; v < nodeCount; v++) {
    const d = denseOfNode[v]!;
    const { height, model } = sampleModels(models, nodes.lonE7[d]! / 1e7, nodes.latE7[d]! / 1e7);
    if (model >= 0) {
      nodeElevation[v] = height;
      nodesByModel[model]!++;
      nodesBySource.dem++;
    } else if (useOsm && nodes.osmElevation.has(d)) {
      nodeElevation[v] = nodes.osmElevation.get(d)!;
      nodesBySource.osm++;
    } else {
      nodeElevation[v] = NaN;
      nodesBySource.flat++;
      continue;
    }
    nodeElevationKnown[v] = 1;
  }
  if (!useOsm && osmTagged > 0 && nodesBySource.dem < nodeCount) {
    input.warnings.count('OSM ele too sparse to use (under half the nodes carry it): flat instead', `${osmTagged} of ${nodeCount} nodes`);
  }
  fillFromNeighbours(nodeElevation, input);
  const { segmentAscent, segmentDescent } = segmentClimbs(input, nodeElevation, nodeElevationKnown);
  const source: ElevationSource = nodesBySource.dem >= nodesBySource.osm && nodesBySource.dem >= nodesBySource.flat
    ? 'dem'
    : nodesBySource.osm >= nodesBySource.flat ? 'osm' : 'flat';
  return {
    nodeElevation,
    nodeElevationKnown,
    segmentAscent,
    segmentDescent,
    summary: { source, nodes_by_source: nodesBySource, models: models.map((model, m) => ({ name: model.name, nodes: nodesByModel[m]! })) },
  };
}

/** The height at a point from the first model that covers it (`model` -1 and NaN where none does). */
function sampleModels(models: readonly ElevationModel[], lon: number, lat: number): { height: number; model: number } {
  for (let m = 0; m < models.length; m++) {
    const height = models[m]!.sample(lon, lat);
    if (!Number.isNaN(height)) return { height, model: m };
  }
  return { height: NaN, model: -1 };
}

/**
 * Nodes without a height (NaN) take the mean of their neighbours' (either direction), in rounds
 * from the known nodes outwards, so each takes its nearest known nodes' heights; nodes no known
 * node reaches take 0.
 */
function fillFromNeighbours(nodeElevation: Float32Array, { edges, csr }: Pick<ElevationInput, 'edges' | 'csr'>): void {
  let pending: number[] = [];
  for (let v = 0; v < nodeElevation.length; v++) if (Number.isNaN(nodeElevation[v]!)) pending.push(v);
  while (pending.length > 0) {
    const filled: [number, number][] = [];
    const waiting: number[] = [];
    for (const v of pending) {
      let sum = 0;
      let count = 0;
      const add = (neighbour: number): void => {
        const value = nodeElevation[neighbour]!;
        if (!Number.isNaN(value)) {
          sum += value;
          count++;
        }
      };
      for (let e = csr.firstOut[v]!; e < csr.firstOut[v + 1]!; e++) add(edges.head[e]!);
      for (let i = csr.firstIn[v]!; i < csr.firstIn[v + 1]!; i++) add(edges.tail[csr.inEdges[i]!]!);
      if (count > 0) filled.push([v, sum / count]);
      else waiting.push(v);
    }
    if (filled.length === 0) break;
    for (const [v, value] of filled) nodeElevation[v] = value;
    pending = waiting;
  }
  for (const v of pending) nodeElevation[v] = 0;
}

/**
 * Each live segment's climb and descent, in decimetres, along its smoothed profile; none where
 * either end's height was filled in rather than measured (a climb there would be invented).
 */
function segmentClimbs(input: ElevationInput, nodeElevation: Float32Array, known: Uint8Array): { segmentAscent: Uint16Array; segmentDescent: Uint16Array } {
  const { models, nodes, segments, segmentNew, liveSegments, nodeCount, denseOfNode, graphNodes } = input;
  const finalOfGraphNode = new Int32Array(graphNodes.count).fill(-1);
  for (let v = 0; v < nodeCount; v++) finalOfGraphNode[graphNodes.of[denseOfNode[v]!]!] = v;
  const segmentAscent = new Uint16Array(liveSegments);
  const segmentDescent = new Uint16Array(liveSegments);
  for (let s = 0; s < segments.count; s++) {
    const t = segmentNew[s]!;
    const start = finalOfGraphNode[segments.start[s]!]!;
    const end = finalOfGraphNode[segments.end[s]!]!;
    if (t < 0 || !known[start] || !known[end]) continue;
    const profile = segmentProfile(models, nodes, segments.points.subarray(segments.pointFirst[s]!, segments.pointFirst[s + 1]!), nodeElevation[start]!, nodeElevation[end]!);
    const [ascent, descent] = climb(profile);
    segmentAscent[t] = Math.min(65535, Math.round(ascent * 10));
    segmentDescent[t] = Math.min(65535, Math.round(descent * 10));
  }
  return { segmentAscent, segmentDescent };
}

/**
 * Heights along a segment's geometry (dense nodes `points`): its start node's, the models' every
 * PROFILE_STEP_METRES or less, its end node's; the samples between smoothed along the way by a
 * moving mean over the sampling model's `smoothingMetres` either side, within the segment.
 * Samples no model covers stay NaN (climb() interpolates them).
 */
export function segmentProfile(models: readonly ElevationModel[], nodes: ElevationInput['nodes'], points: ArrayLike<number>, startHeight: number, endHeight: number): number[] {
  const lon = (i: number): number => nodes.lonE7[points[i]!]!;
  const lat = (i: number): number => nodes.latE7[points[i]!]!;
  const heights = [startHeight];
  let smoothing = 0;
  let sampled = 0;
  for (let i = 1; i < points.length; i++) {
    const length = haversineMetresE7(lon(i - 1), lat(i - 1), lon(i), lat(i));
    const steps = Math.max(1, Math.ceil(length / PROFILE_STEP_METRES));
    sampled = length / steps;
    for (let k = i === 1 ? 1 : 0; k < steps; k++) {
      const t = k / steps;
      const point = sampleModels(models, (lon(i - 1) + (lon(i) - lon(i - 1)) * t) / 1e7, (lat(i - 1) + (lat(i) - lat(i - 1)) * t) / 1e7);
      heights.push(point.height);
      if (point.model >= 0) smoothing = Math.max(smoothing, models[point.model]!.smoothingMetres);
    }
  }
  heights.push(endHeight);
  const radius = sampled > 0 ? Math.round(smoothing / Math.min(sampled, PROFILE_STEP_METRES)) : 0;
  return radius > 0 ? movingMean(heights, radius) : heights;
}

/** The mean of the known values within `radius` places either side of each interior value; the two ends stay as they are. */
function movingMean(values: readonly number[], radius: number): number[] {
  const sum = new Float64Array(values.length + 1);
  const count = new Uint32Array(values.length + 1);
  for (let i = 0; i < values.length; i++) {
    const known = !Number.isNaN(values[i]!);
    sum[i + 1] = sum[i]! + (known ? values[i]! : 0);
    count[i + 1] = count[i]! + (known ? 1 : 0);
  }
  return values.map((value, i) => {
    if (i === 0 || i === values.length - 1 || Number.isNaN(value)) return value;
    const from = Math.max(0, i - radius);
    const to = Math.min(values.length, i + radius + 1);
    return (sum[to]! - sum[from]!) / (count[to]! - count[from]!);
  });
}

/**
 * Metres climbed and descended along a profile whose ends are known. Heights without a value
 * (beyond every model) are interpolated, in place, between their neighbours.
 */
function climb(heights: number[]): [number, number] {
  for (let i = 1; i < heights.length - 1; i++) {
    if (!Number.isNaN(heights[i]!)) continue;
    let j = i + 1;
    while (Number.isNaN(heights[j]!)) j++;
    for (let k = i; k < j; k++) heights[k] = heights[i - 1]! + ((heights[j]! - heights[i - 1]!) * (k - i + 1)) / (j - i + 1);
  }
  let ascent = 0;
  let descent = 0;
  for (let i = 1; i < heights.length; i++) {
    const delta = heights[i]! - heights[i - 1]!;
    if (delta > 0) ascent += delta;
    else descent -= delta;
  }
  return [ascent, descent];
}
