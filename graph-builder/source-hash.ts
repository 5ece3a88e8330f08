import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { BuildableCity } from './city-recipes.ts';
import { COSTING_FINGERPRINT } from '../core/routing/costing/weights.ts';
import { GRAPH_FORMAT_VERSION } from '../core/graph/layout.ts';
import { LANDMARK_COUNT } from '../core/routing/search/landmarks.ts';

/**
 * Bump when a change to the builder changes its output for the same input (tag rules, layout,
 * defaults): the source hash includes it, so every graph is rebuilt on the next start.
 */
export const BUILDER_VERSION = '1.9.0';

export interface InputFile {
  readonly path: string;
  readonly name: string;
  readonly bytes: number;
  readonly sha256: string;
}

export async function hashFile(path: string): Promise<InputFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { path, name: basename(path), bytes, sha256: hash.digest('hex') };
}

/** Every file a city's build reads: its extracts, then its elevation models and area files if any. */
export function cityInputPaths(city: BuildableCity, dataPath: string): { extracts: string[]; elevation: { file: string; surface: boolean }[]; areas: string | null } {
  return {
    extracts: city.graph.extracts.map((extract) => resolve(dataPath, extract)),
    elevation: (city.graph.elevation ?? []).map((model) => ({ ...model, file: resolve(dataPath, model.file) })),
    areas: city.graph.areas ? resolve(dataPath, city.graph.areas.file) : null,
  };
}

/**
 * The hash that decides whether a graph is stale: builder and format versions, the city's
 * build-relevant settings, and the content of every input file (not names or dates, so a copy of
 * the same data elsewhere gives the same hash).
 */
export function sourceHash(city: BuildableCity, inputs: readonly InputFile[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({
    builder: BUILDER_VERSION,
    format: GRAPH_FORMAT_VERSION,
    // The landmark tables depend on the costing's weights and on how many there are.
    costing: COSTING_FINGERPRINT,
    landmarks: LANDMARK_COUNT,
    city: { id: city.id, timeZone: city.timeZone, countryCode: city.countryCode, region: city.region, boundary: city.boundary, lighting: city.lightingData },
    // Folded reports change the graph as much as an edit of the extract would.
    folded: city.graph.folded ?? null,
    inputs: inputs.map((input) => input.sha256),
  }));
  return hash.digest('hex');
}

/** Every input file of a city's build with its hash, and the city's source hash. */
export async function cityInputs(city: BuildableCity, dataPath: string): Promise<{ files: InputFile[]; hash: string }> {
  const paths = cityInputPaths(city, dataPath);
  const files: InputFile[] = [];
  for (const path of [...paths.extracts, ...paths.elevation.map((model) => model.file), paths.areas]) {
    if (path) files.push(await hashFile(path));
  }
  return { files, hash: sourceHash(city, files) };
}
