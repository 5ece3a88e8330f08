import { graphOf, type GraphSections } from '../../core/graph/layout.ts';
import { computeOpenCore, OPEN_CORE_DEFINITION } from '../../core/routing/network/open-core.ts';
import type { HeaderWithoutSections } from '../writer.ts';
import type { CostTableSectionName } from './cost-tables.ts';
import { noHierarchies, type HierarchySectionName } from './hierarchy.ts';
import { noLandmarks, type LandmarkSectionName } from './landmarks.ts';

/**
 * Stage `open-core`: per edge, whether it lies in a profile's open core (the network snapping
 * checks candidates against), computed by the router's own definition on the builder's arrays,
 * so a router reads it in place instead of computing it on every load (docs/graph-format.md).
 */

type LaterSectionName = 'openCore' | CostTableSectionName | LandmarkSectionName | HierarchySectionName;

export interface OpenCoreInput {
  readonly header: Omit<HeaderWithoutSections, 'landmarks' | 'hierarchies' | 'cost_tables' | 'open_core'>;
  readonly sections: Omit<GraphSections, LaterSectionName>;
}

export interface OpenCoreOutput {
  /** The definition it was computed under (header `open_core`). */
  readonly definition: string;
  readonly openCore: Uint8Array;
}

export function openCoreTable({ header, sections }: OpenCoreInput): OpenCoreOutput {
  const none = noLandmarks();
  const noHierarchy = noHierarchies();
  const later = {
    openCore: new Uint8Array(0), turnRowFirst: new Uint32Array(0), leastCost: new Float32Array(0), turnCost: new Uint8Array(0),
    ...none.sections, ...noHierarchy.sections,
  } satisfies Pick<GraphSections, LaterSectionName>;
  const graph = graphOf(
    { ...header, open_core: '', cost_tables: { costing: '', row_flags: 0, metrics: [] }, landmarks: none.header, hierarchies: noHierarchy.header },
    { ...sections, ...later },
  );
  return { definition: OPEN_CORE_DEFINITION, openCore: computeOpenCore(graph) };
}
