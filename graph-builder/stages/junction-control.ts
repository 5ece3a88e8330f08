import { EDGE_ARRIVAL_CONTROL_SHIFT, EDGE_JUNCTION_CONTROLLED, EDGE_REVERSED, ROAD_CLASSES, roadClassOf } from '../../core/graph/flags.ts';
import type { Csr, EdgeArrays } from './edge-arrays.ts';
import type { GraphNodeIndex } from './edges.ts';
import { assignArrivalControls, type NodeControl } from './junction-control/controls.ts';
import type { CollectedNodes } from './read/collect.ts';

/**
 * Stage `junction-control`: the control each edge meets on arriving at its head (signals, stop
 * and give-way signs, crossings), and whether signals or an all-way stop govern its approach to a
 * junction, by the rules of junction-control/controls.ts, as edge flags.
 */

/** Importance of a road class, to tell the minor road at a junction. */
const ROAD_RANK: Readonly<Record<string, number>> = {
  trunk: 6, primary: 5, secondary: 4, tertiary: 3, unclassified: 2, residential: 2, living_street: 1, service: 1, other: 1, track: 1,
};

export interface JunctionControlInput {
  readonly nodes: Pick<CollectedNodes, 'controls'>;
  readonly graphNodes: GraphNodeIndex;
  readonly edges: Pick<EdgeArrays, 'tail' | 'head' | 'length'>;
  readonly edgeFlags: Uint32Array;
  readonly csr: Csr;
}

export interface JunctionControlOutput {
  /** The edge flags with arrival control and junction control added. */
  readonly edgeFlags: Uint32Array;
}

export function markJunctionControl({ nodes, graphNodes, edges, edgeFlags, csr }: JunctionControlInput): JunctionControlOutput {
  const arrival = assignArrivalControls({
    nodeCount: graphNodes.count,
    edgeTail: edges.tail,
    edgeHead: edges.head,
    edgeLength: edges.length,
    edgeReversed: Uint8Array.from(edgeFlags, (f) => (f & EDGE_REVERSED ? 1 : 0)),
    edgeRoadRank: Uint8Array.from(edgeFlags, (f) => ROAD_RANK[ROAD_CLASSES[roadClassOf(f)]!] ?? 0),
    firstOut: csr.firstOut,
    firstIn: csr.firstIn,
    inEdges: csr.inEdges,
    control: (v): NodeControl | null => nodes.controls.get(graphNodes.dense[v]!) ?? null,
  });
  const flags = edgeFlags.map((f, e) => f | (arrival.control[e]! << EDGE_ARRIVAL_CONTROL_SHIFT) | (arrival.junctionControlled[e] ? EDGE_JUNCTION_CONTROLLED : 0));
  return { edgeFlags: flags };
}
