import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { City, CityId } from '../core/cities/cities.ts';
import { buildableCities } from './city-recipes.ts';
import { buildCity, readPointer, type BuildReport } from './build.ts';
import { cityInputs } from './source-hash.ts';
import type { ProgressListener } from './stages/read/collect.ts';

export { buildCity, readPointer, type BuildReport, type BuildResult } from './build.ts';
export { OsmInputError } from './osm/types.ts';

export interface EnsureGraphsOptions {
  readonly cities?: readonly CityId[];
  readonly log?: (line: string) => void;
  /** The input data folder (OSM extracts, boundaries, elevation): where the caller keeps it. */
  readonly dataPath: string;
  /** The graph folder to build into: the caller's, locally or in a Lambda's scratch space. */
  readonly outDir: string;
  /** Rebuild even when the graph is up to date. */
  readonly force?: boolean;
  readonly onProgress?: (city: City) => ProgressListener | undefined;
  /** Called with each fresh build's report. */
  readonly onBuilt?: (report: BuildReport) => void;
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/**
 * Makes sure every requested city has a current graph: builds the ones that are missing or
 * whose source hash (inputs + builder version) changed, and returns each city's graph file path.
 * A city whose input data is absent keeps its existing graph if it has one, and is otherwise left
 * out (logged); the caller decides whether that is fatal (`npm start` stops and names the missing
 * input: lib/local/graphs.ts).
 */
export async function ensureGraphs(options: EnsureGraphsOptions): Promise<Partial<Record<CityId, string>>> {
  const log = options.log ?? (() => {});
  const { dataPath, outDir } = options;
  const wanted = options.cities ? buildableCities.filter((city) => options.cities!.includes(city.id)) : buildableCities;
  const paths: Partial<Record<CityId, string>> = {};
  for (const city of wanted) {
    const pointer = await readPointer(outDir, city.id);
    const currentPath = pointer ? join(outDir, pointer.key) : null;
    const haveCurrent = currentPath !== null && (await exists(currentPath));
    let hash: string;
    try {
      hash = (await cityInputs(city, dataPath)).hash;
    } catch (error) {
      if (haveCurrent) {
        log(`${city.id}: input data not readable (${(error as Error).message}); using existing ${pointer!.graph_version}`);
        paths[city.id] = currentPath!;
      } else {
        log(`${city.id}: no graph and input data not readable (${(error as Error).message}); skipped`);
      }
      continue;
    }
    if (!options.force && haveCurrent && pointer!.source_hash === hash) {
      log(`${city.id}: graph ${pointer!.graph_version} is up to date`);
      paths[city.id] = currentPath!;
      continue;
    }
    log(`${city.id}: ${haveCurrent ? 'inputs or builder changed' : 'no graph yet'}; building`);
    const result = await buildCity({ city, dataPath, outDir, onProgress: options.onProgress?.(city) });
    log(`${city.id}: built ${result.pointer.graph_version} in ${result.report.build_seconds.toFixed(1)} s`);
    options.onBuilt?.(result.report);
    paths[city.id] = result.graphPath;
  }
  return paths;
}
