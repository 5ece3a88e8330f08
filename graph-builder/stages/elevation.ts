import type { ElevationSource } from '../../core/graph/layout.ts';
import type { CollectedNodes } from '../collect.ts';
import { OSM_ELEVATION_MIN_COVERAGE, type Dem } from '../elevation-sources.ts';
import type { Warnings } from '../warnings.ts';

/**
 * Stage `elevation`: a height for every node, from the DEM where it covers the node, else from
 * OSM `ele` when at least half the nodes carry one, else flat; nodes left without a value take
 * their neighbours' mean (a few rounds), then 0.
 */

export interface ElevationInput {
  readonly nodes: Pick<CollectedNodes, 'lonE7' | 'latE7' | 'osmElevation'>;
  readonly dem: Dem | null;
  readonly nodeCount: number;
  readonly denseOfNode: Uint32Array;
  readonly firstOut: Uint32Array;
  readonly edgeHead: Uint32Array;
  readonly warnings: Warnings;
}

export interface ElevationOutput {
  readonly nodeElevation: Float32Array;
  /** The source most nodes took their height from. */
  readonly source: ElevationSource;
  readonly nodesBySource: Record<ElevationSource, number>;
  /** Whether OSM `ele` is used where the DEM has nothing (for points along segments too). */
  readonly useOsm: boolean;
}

/** Height at a dense node: the DEM's, else its OSM `ele` when those are used, else NaN. */
export function pointElevation(nodes: ElevationInput['nodes'], dem: Dem | null, useOsm: boolean, d: number): number {
  const fromDem = demValue(nodes, dem, d);
  if (!Number.isNaN(fromDem)) return fromDem;
  if (useOsm) return nodes.osmElevation.get(d) ?? NaN;
  return NaN;
}

const demValue = (nodes: ElevationInput['nodes'], dem: Dem | null, d: number): number =>
  (dem ? dem.sample(nodes.lonE7[d]! / 1e7, nodes.latE7[d]! / 1e7) : NaN);

export function nodeElevations({ nodes, dem, nodeCount, denseOfNode, firstOut, edgeHead, warnings }: ElevationInput): ElevationOutput {
  let demNodes = 0;
  const nodeElevation = new Float32Array(nodeCount);
  const nodeDem = new Float64Array(nodeCount);
  for (let v = 0; v < nodeCount; v++) {
    nodeDem[v] = demValue(nodes, dem, denseOfNode[v]!);
    if (!Number.isNaN(nodeDem[v]!)) demNodes++;
  }
  let osmTagged = 0;
  for (let v = 0; v < nodeCount; v++) if (nodes.osmElevation.has(denseOfNode[v]!)) osmTagged++;
  const useOsm = nodeCount > 0 && osmTagged / nodeCount >= OSM_ELEVATION_MIN_COVERAGE;
  if (!useOsm && osmTagged > 0 && demNodes < nodeCount) {
    warnings.count('OSM ele too sparse to use (under half the nodes carry it): flat instead', `${osmTagged} of ${nodeCount} nodes`);
  }
  const nodesBySource: Record<ElevationSource, number> = { dem: 0, osm: 0, flat: 0 };
  for (let v = 0; v < nodeCount; v++) {
    const d = denseOfNode[v]!;
    if (!Number.isNaN(nodeDem[v]!)) {
      nodeElevation[v] = nodeDem[v]!;
      nodesBySource.dem++;
    } else if (useOsm && nodes.osmElevation.has(d)) {
      nodeElevation[v] = nodes.osmElevation.get(d)!;
      nodesBySource.osm++;
    } else {
      nodeElevation[v] = NaN;
      nodesBySource.flat++;
    }
  }
  if (useOsm || nodesBySource.dem > 0) fillFromNeighbours(nodeElevation, firstOut, edgeHead);
  for (let v = 0; v < nodeCount; v++) if (Number.isNaN(nodeElevation[v]!)) nodeElevation[v] = 0;
  const source: ElevationSource = nodesBySource.dem >= nodesBySource.osm && nodesBySource.dem >= nodesBySource.flat
    ? 'dem'
    : nodesBySource.osm >= nodesBySource.flat ? 'osm' : 'flat';
  return { nodeElevation, source, nodesBySource, useOsm };
}

/** Nodes without a value take the mean of their out-neighbours' values, in place, for a few rounds. */
function fillFromNeighbours(nodeElevation: Float32Array, firstOut: Uint32Array, edgeHead: Uint32Array): void {
  for (let round = 0; round < 3; round++) {
    for (let v = 0; v < nodeElevation.length; v++) {
      if (!Number.isNaN(nodeElevation[v]!)) continue;
      let sum = 0;
      let count = 0;
      for (let e = firstOut[v]!; e < firstOut[v + 1]!; e++) {
        const value = nodeElevation[edgeHead[e]!]!;
        if (!Number.isNaN(value)) {
          sum += value;
          count++;
        }
      }
      if (count > 0) nodeElevation[v] = sum / count;
    }
  }
}
