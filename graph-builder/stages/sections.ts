import { EDGE_ROADWORKS, NODE_ELEVATION_KNOWN, NODE_JUNCTION } from '../../core/graph/flags.ts';
import type { GridSpec } from '../../core/graph/layout.ts';
import { Growable } from '../growable.ts';
import type { TimeWindowCompiler } from '../time-windows.ts';
import type { StringTable } from '../writer.ts';
import type { Csr, EdgeArrays } from './edge-arrays.ts';
import { distinctNeighbourCounts } from './junction-control/controls.ts';
import type { NamedArea } from './read.ts';
import type { CollectedNodes } from './read/collect.ts';
import { buildGrid, sparseGrid } from './sections/spatial-index.ts';

/**
 * Stage `sections`: the remaining sections of the graph file. Node coordinates and flags
 * (control points, junctions, measured heights), the spatial grid over the segment geometry, the named areas, the
 * compiled time windows and, last, the string table (nothing is interned after this stage).
 */

export interface SectionsInput {
  readonly nodes: Pick<CollectedNodes, 'lonE7' | 'latE7' | 'controls'>;
  readonly nodeCount: number;
  readonly denseOfNode: Uint32Array;
  /** 1 where the node's height was measured rather than filled in (the `elevation` stage). */
  readonly nodeElevationKnown: Uint8Array;
  readonly edges: Pick<EdgeArrays, 'tail' | 'head' | 'flags' | 'segment' | 'closure'>;
  readonly csr: Csr;
  readonly pointCoords: Int32Array;
  readonly segmentFirstPoint: Uint32Array;
  readonly areas: readonly NamedArea[];
  readonly windows: TimeWindowCompiler;
  readonly strings: StringTable;
}

export interface NodeSections {
  readonly nodeCoords: Int32Array;
  readonly nodeFlags: Uint16Array;
}

export interface AreaSections {
  readonly areaName: Uint32Array;
  readonly areaFirstRing: Uint32Array;
  readonly ringFirstPoint: Uint32Array;
  readonly areaCoords: Int32Array;
}

export interface WindowSections {
  readonly windowKind: Uint8Array;
  readonly windowFirst: Uint32Array;
  readonly windowIntervals: Int32Array;
  readonly windowSource: Uint32Array;
}

export interface GridSections {
  readonly gridFirst: Uint32Array;
  readonly gridSegments: Uint32Array;
  readonly disruptionCells: Uint32Array;
  readonly disruptionCellFirst: Uint32Array;
  readonly disruptionCellSegments: Uint32Array;
}

export interface StringSections {
  readonly stringOffsets: Uint32Array;
  readonly stringBytes: Uint8Array;
}

export interface SectionsOutput {
  readonly sections: NodeSections & GridSections & AreaSections & WindowSections & StringSections;
  readonly grid: GridSpec;
}

export function layoutSections(input: SectionsInput): SectionsOutput {
  const nodeSections = nodeSectionsOf(input);
  const grid = buildGrid(input.pointCoords, input.segmentFirstPoint);
  const disruptions = sparseGrid(grid, disruptedSegments(input.edges, input.segmentFirstPoint.length - 1));
  const areas = areaSections(input.areas, input.strings);
  const windows = windowSections(input.windows, input.strings);
  const { offsets: stringOffsets, bytes: stringBytes } = input.strings.encode();
  return {
    sections: {
      ...nodeSections, gridFirst: grid.first, gridSegments: grid.segments,
      disruptionCells: disruptions.cells, disruptionCellFirst: disruptions.first, disruptionCellSegments: disruptions.segments,
      ...areas, ...windows, stringOffsets, stringBytes,
    },
    grid: grid.spec,
  };
}

/** Whether a segment carries a disruption the graph knows: an edge over it with a closure rule or roadworks. */
function disruptedSegments(edges: SectionsInput['edges'], segmentCount: number): (segment: number) => boolean {
  const disrupted = new Uint8Array(segmentCount);
  for (let edge = 0; edge < edges.segment.length; edge++) {
    if (edges.closure[edge] !== 0 || (edges.flags[edge]! & EDGE_ROADWORKS) !== 0) disrupted[edges.segment[edge]!] = 1;
  }
  return (segment) => disrupted[segment] === 1;
}

function nodeSectionsOf({ nodes, nodeCount, denseOfNode, nodeElevationKnown, edges, csr }: SectionsInput): NodeSections {
  const nodeCoords = new Int32Array(nodeCount * 2);
  const nodeFlags = new Uint16Array(nodeCount);
  const degree = distinctNeighbourCounts({ nodeCount, firstOut: csr.firstOut, edgeHead: edges.head, firstIn: csr.firstIn, inEdges: csr.inEdges, edgeTail: edges.tail });
  for (let v = 0; v < nodeCount; v++) {
    const d = denseOfNode[v]!;
    nodeCoords[2 * v] = nodes.lonE7[d]!;
    nodeCoords[2 * v + 1] = nodes.latE7[d]!;
    nodeFlags[v] = (nodes.controls.get(d)?.flags ?? 0) | (degree[v]! >= 3 ? NODE_JUNCTION : 0) | (nodeElevationKnown[v] ? NODE_ELEVATION_KNOWN : 0);
  }
  return { nodeCoords, nodeFlags };
}

function areaSections(areas: readonly NamedArea[], strings: StringTable): AreaSections {
  const areaName = new Uint32Array(areas.length);
  const areaFirstRing = new Uint32Array(areas.length + 1);
  const ringFirstPoint = new Growable(Uint32Array);
  const areaCoords = new Growable(Int32Array);
  ringFirstPoint.push(0);
  areas.forEach((area, a) => {
    areaName[a] = strings.intern(area.name);
    for (const ring of area.rings) {
      for (const [lon, lat] of ring) {
        areaCoords.push(Math.round(lon * 1e7));
        areaCoords.push(Math.round(lat * 1e7));
      }
      ringFirstPoint.push(areaCoords.length / 2);
    }
    areaFirstRing[a + 1] = ringFirstPoint.length - 1;
  });
  return { areaName, areaFirstRing, ringFirstPoint: ringFirstPoint.toArray(), areaCoords: areaCoords.toArray() };
}

function windowSections(windows: TimeWindowCompiler, strings: StringTable): WindowSections {
  const windowKind = new Uint8Array(windows.windows.length);
  const windowFirst = new Uint32Array(windows.windows.length + 1);
  const windowIntervals: number[] = [];
  const windowSource = new Uint32Array(windows.windows.length);
  windows.windows.forEach((window, i) => {
    windowKind[i] = window.kind;
    windowIntervals.push(...window.intervals);
    windowFirst[i + 1] = windowIntervals.length / 2;
    windowSource[i] = strings.intern(window.source);
  });
  return { windowKind, windowFirst, windowIntervals: Int32Array.from(windowIntervals), windowSource };
}
