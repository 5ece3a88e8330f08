import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cityIds, isCityId, type CityId } from '../../core/cities/index.ts';
import { DataFolderError, graphOutputDir, sharedDataPath } from './paths.ts';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { cityInputPaths } from '../../graph-builder/source-hash.ts';
import { bucketName } from '../../platform/resources.ts';
import { ensureGraphs, readPointer } from '../../graph-builder/index.ts';
import { publishedPointer, publishGraph, pruneGraphVersions } from '../../graph-builder/publish.ts';

/**
 * The local platform's graphs: built from the shared data when missing or stale, then published
 * to the local graphs bucket exactly as the nightly job publishes them in AWS, so routers load
 * them from S3 the same way.
 */

/** `SPOKE_CITIES=london,new-york` limits which cities are built and served (default: all). */
export function citiesFromEnvironment(environment: NodeJS.ProcessEnv = process.env): CityId[] {
  const raw = environment.SPOKE_CITIES?.trim();
  if (!raw) return [...cityIds];
  const wanted = raw.split(',').map((city) => city.trim()).filter(Boolean);
  const unknown = wanted.filter((city) => !isCityId(city));
  if (unknown.length) throw new Error(`SPOKE_CITIES names unknown cities: ${unknown.join(', ')} (known: ${cityIds.join(', ')})`);
  return wanted as CityId[];
}

export async function prepareLocalGraphs(cities: CityId[], log: (line: string) => void): Promise<void> {
  const outDir = graphOutputDir();
  const built = await ensureGraphs({ cities, dataPath: sharedDataPath(), outDir, log });
  const missing = cities.find((city) => !built[city]);
  if (missing) throw await missingInputs(missing);
  const bucket = bucketName('graphs');
  for (const city of cities) {
    const pointer = await readPointer(outDir, city);
    if (!pointer) continue;
    const published = await publishedPointer(bucket, city);
    if (published?.graph_version === pointer.graph_version) continue;
    await publishGraph(bucket, city, pointer, await readFile(join(outDir, pointer.key)));
    log(`${city}: published ${pointer.graph_version} to the local graphs bucket`);
    // As the nightly build does, so a long-lived data folder keeps only the newest few graphs.
    await pruneGraphVersions(bucket, city);
  }
}

/** A city the platform serves has no graph and cannot build one: which of its inputs the data folder lacks. */
async function missingInputs(city: CityId): Promise<DataFolderError> {
  const dataPath = sharedDataPath();
  const { extracts, elevation, areas } = cityInputPaths(buildableCity(city), dataPath);
  const unreadable = [];
  for (const path of [...extracts, ...elevation.map((model) => model.file), areas]) if (path && !(await access(path).then(() => true, () => false))) unreadable.push(path);
  const [first, ...more] = unreadable;
  const lacks = first ? `${first}${more.length ? ` and ${more.length} more of its inputs` : ''}` : 'readable inputs';
  return new DataFolderError(`${city} has no routing graph yet, and the data folder ${dataPath} lacks ${lacks} to build one (SPOKE_CITIES limits the cities served).`);
}
