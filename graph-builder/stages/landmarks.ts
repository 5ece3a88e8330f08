import { graphOf, type GraphSections } from '../../core/graph/layout.ts';
import { computeLandmarkSections, type LandmarkSections } from '../../core/routing/search/landmarks.ts';
import { RoutingNetwork } from '../../core/routing/network/network.ts';
import type { HeaderWithoutSections } from '../writer.ts';
import { noHierarchies, type HierarchySectionName } from './hierarchy.ts';

/**
 * Stage `landmarks`: the landmark tables that bound the router's searches, computed by the
 * router's own costing (with the cost tables of the stage before) on the builder's arrays seen as
 * the router will see the graph.
 */

export type LandmarkSectionName = keyof LandmarkSections['sections'];

/** The landmark header and sections of a graph without landmarks: how the stages before this one see the graph. */
export function noLandmarks(): LandmarkSections {
  return {
    header: { costing: '', count: 0, regions: 0, metrics: [] },
    sections: {
      landmarkNodes: new Uint32Array(0), landmarkRowBits: new Uint32Array(0), landmarkRowRank: new Uint32Array(0), landmarkRowRegion: new Uint16Array(0),
      landmarkLeave: new Uint8Array(0), landmarkDistances: new Uint16Array(0),
    },
  };
}

export interface LandmarksInput {
  readonly header: Omit<HeaderWithoutSections, 'landmarks' | 'hierarchies'>;
  readonly sections: Omit<GraphSections, LandmarkSectionName | HierarchySectionName>;
}

export function landmarkTables({ header, sections }: LandmarksInput): LandmarkSections {
  const none = noLandmarks();
  const noHierarchy = noHierarchies();
  const graph = graphOf({ ...header, landmarks: none.header, hierarchies: noHierarchy.header }, { ...sections, ...none.sections, ...noHierarchy.sections });
  return computeLandmarkSections(new RoutingNetwork(graph));
}
