import { join } from 'node:path';
import { graphKey } from '../../core/graph/catalog.ts';
import type { GraphSections } from '../../core/graph/layout.ts';
import type { HierarchySections } from '../../core/routing/search/hierarchy.ts';
import type { LandmarkSections } from '../../core/routing/search/landmarks.ts';
import { writeGraphFile, type HeaderWithoutSections } from '../writer.ts';
import type { HierarchySectionName } from './hierarchy.ts';
import type { LandmarkSectionName } from './landmarks.ts';

/**
 * Stage `write`: the graph serialised (docs/graph-format.md) and written atomically to
 * `cities/<city>/graphs/<graph_version>.graph` in the output folder. The pointer and the report
 * are written after the build, pointer last.
 */

export interface WriteInput {
  readonly outDir: string;
  readonly header: Omit<HeaderWithoutSections, 'landmarks' | 'hierarchies'>;
  readonly sections: Omit<GraphSections, LandmarkSectionName | HierarchySectionName>;
  readonly landmarks: LandmarkSections;
  readonly hierarchies: HierarchySections;
}

export interface WrittenGraph {
  /** The graph's key, relative to the output folder (as in the graphs bucket). */
  readonly key: string;
  readonly path: string;
  readonly bytes: number;
}

export async function writeGraph({ outDir, header, sections, landmarks, hierarchies }: WriteInput): Promise<WrittenGraph> {
  const key = graphKey(header.city, header.graph_version);
  const path = join(outDir, key);
  const bytes = await writeGraphFile(
    path,
    { ...header, landmarks: landmarks.header, hierarchies: hierarchies.header },
    { ...sections, ...landmarks.sections, ...hierarchies.sections },
  );
  return { key, path, bytes };
}
