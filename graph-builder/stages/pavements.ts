import { EDGE_WALKING, WALK_CARRIAGEWAY } from '../../core/graph/flags.ts';
import type { WayAttributes } from '../tag-rules/way.ts';
import type { SegmentEdges, SegmentTable } from './edges.ts';
import { roadsWithSeparateSidewalks } from './pavements/sidewalks.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';

/**
 * Stage `pavements` (spec 1.2.10): carriageways whose pavement is drawn as its own way leave the
 * walking network; pedestrians are routed along the pavement instead.
 */

export interface PavementsInput {
  readonly ways: CollectedWays;
  readonly nodes: CollectedNodes;
  readonly segments: SegmentTable;
  readonly segmentEdges: SegmentEdges;
  readonly edgeFlags: Uint32Array;
}

export interface PavementsOutput {
  /** The edge flags with walking taken off those carriageways. */
  readonly edgeFlags: Uint32Array;
  /** Carriageway segments taken out of the walking network, and their length. */
  readonly separatePavements: { readonly segments: number; readonly km: number };
}

export function removeCarriagewaysWithPavements({ ways, nodes, segments, segmentEdges, edgeFlags }: PavementsInput): PavementsOutput {
  const edgesOf = (s: number): number[] => [segmentEdges.forward[s]!, segmentEdges.backward[s]!].filter((e) => e >= 0);
  const walkable = (s: number): boolean => edgesOf(s).some((e) => edgeFlags[e]! & EDGE_WALKING);
  const attributesOf = (s: number): WayAttributes => ways.attributes[ways.attributeIndex[segments.way[s]!]!]!;
  const separatePavement = roadsWithSeparateSidewalks({
    segmentCount: segments.count,
    first: segments.pointFirst,
    points: segments.points,
    lonE7: nodes.lonE7,
    latE7: nodes.latE7,
    isRoad: (s) => {
      const attributes = attributesOf(s);
      return attributes.kind === 'road' && attributes.walkKind === WALK_CARRIAGEWAY && walkable(s);
    },
    isSidewalk: (s) => attributesOf(s).sidewalk && walkable(s),
  });
  const flags = edgeFlags.slice();
  let count = 0;
  let metres = 0;
  for (let s = 0; s < segments.count; s++) {
    if (!separatePavement[s]) continue;
    count++;
    metres += segments.length[s]!;
    for (const e of edgesOf(s)) flags[e] = flags[e]! & ~EDGE_WALKING;
  }
  return { edgeFlags: flags, separatePavements: { segments: count, km: Math.round(metres) / 1000 } };
}
