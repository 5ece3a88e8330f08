import { readFile } from 'node:fs/promises';
import type { BuildableCity } from '../city-recipes.ts';
import type { RuleContext } from '../tag-rules/context.ts';
import type { StringTable } from '../writer.ts';
import { loadElevationModel, type ElevationModel } from './elevation/models.ts';
import { collectOsm, type Collected, type ProgressListener } from './read/collect.ts';

/**
 * Stage `read`: the city's inputs into memory. The OSM extracts are streamed twice by
 * `collectOsm` (ways and relations, then the nodes those ways use), never held as objects; the
 * elevation models and the named areas are read whole (a model tile is a few megabytes).
 */

export interface NamedArea {
  readonly name: string;
  /** Rings of [lon, lat] degrees. */
  readonly rings: readonly (readonly [number, number])[][];
}

export interface ReadInput {
  readonly city: BuildableCity;
  readonly paths: { readonly extracts: readonly string[]; readonly elevation: readonly { file: string; surface: boolean }[]; readonly areas: string | null };
  readonly context: RuleContext;
  readonly strings: StringTable;
  readonly onProgress?: ProgressListener;
}

export interface ReadOutput {
  readonly collected: Collected;
  /** The city's elevation models, best first. */
  readonly models: readonly ElevationModel[];
  /** Named areas to embed in the graph. */
  readonly areas: readonly NamedArea[];
}

export async function readInputs({ city, paths, context, strings, onProgress }: ReadInput): Promise<ReadOutput> {
  const collected = await collectOsm(paths.extracts, context, strings, onProgress, city.graph.folded?.wayTags);
  const models = await Promise.all(paths.elevation.map((model) => loadElevationModel(model.file, model)));
  const areaSource = city.graph.areas;
  const areas = paths.areas && areaSource ? await readAreas(paths.areas, areaSource.kind, areaSource.nameProperty) : [];
  return { collected, models, areas };
}

/** Reads named polygons from a GeoJSON FeatureCollection (areas embedded for later rules). */
export async function readAreas(path: string, kind: string, nameProperty: string): Promise<NamedArea[]> {
  const geojson = JSON.parse(await readFile(path, 'utf8')) as {
    features: { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }[];
  };
  return geojson.features.map((feature) => {
    const polygons = feature.geometry.type === 'Polygon'
      ? [feature.geometry.coordinates as [number, number][][]]
      : (feature.geometry.coordinates as [number, number][][][]);
    return { name: `${kind}:${String(feature.properties[nameProperty])}`, rings: polygons.flat() };
  });
}
