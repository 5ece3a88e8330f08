import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildableCity, type BuildableCity } from '../../graph-builder/city-recipes.ts';
import { encodePbf, type OsmElements } from '../../graph-builder/osm/pbf-writer.ts';
import type { Tags } from '../../graph-builder/osm/types.ts';
import { buildCity, type StageListener } from '../../graph-builder/build.ts';

/**
 * A generated grid city of any size, for measuring how routing cost grows with the graph. The
 * stored DIMACS road graphs are topology only (no coordinates, no arc lengths), which the router
 * cannot use, so the large graph is made instead, as OSM data, and compiled by the real builder
 * with the real tag rules and landmark tables.
 *
 * The grid mimics Manhattan: blocks about 90 m square, a busy two-way avenue every sixth column
 * and a moderate cross street every eighth row (both lit, with signals wherever they meet
 * another street), a two-way protected cycle track every fifth column, and one-way residential
 * streets in alternating directions in between, most of them lit.
 */

const LAT_STEP_E7 = 8_000; // 0.0008 degrees, about 89 m
const LON_STEP_E7 = 11_000; // 0.0011 degrees, about 93 m at 40.7 degrees north
const ORIGIN_LON_E7 = -739_000_000;
const ORIGIN_LAT_E7 = 406_000_000;

type StreetKind = 'avenue' | 'cross' | 'track' | 'residential';

const columnKind = (column: number): StreetKind => (column % 6 === 0 ? 'avenue' : column % 5 === 0 ? 'track' : 'residential');
const rowKind = (row: number): StreetKind => (row % 8 === 0 ? 'cross' : 'residential');

function streetTags(kind: StreetKind, name: string, index: number): Tags {
  switch (kind) {
    case 'avenue':
      return { highway: 'primary', name, lit: 'yes', lanes: '4' };
    case 'cross':
      return { highway: 'secondary', name, lit: 'yes' };
    case 'track':
      return { highway: 'residential', name, lit: 'yes', oneway: index % 2 ? 'yes' : '-1', 'oneway:bicycle': 'no', 'cycleway:left': 'track' };
    case 'residential':
      return { highway: 'residential', name, oneway: index % 2 ? 'yes' : '-1', ...(index % 3 ? { lit: 'yes' } : {}) };
  }
}

/** OSM elements for an n x n grid of streets. */
export function gridCityElements(size: number): OsmElements {
  const nodeId = (row: number, column: number) => row * size + column + 1;
  const nodes: OsmElements['nodes'] = [];
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const signals = columnKind(column) === 'avenue' || rowKind(row) === 'cross';
      nodes.push({
        id: nodeId(row, column),
        lonE7: ORIGIN_LON_E7 + column * LON_STEP_E7,
        latE7: ORIGIN_LAT_E7 + row * LAT_STEP_E7,
        tags: signals ? { highway: 'traffic_signals' } : null,
      });
    }
  }
  const ways: OsmElements['ways'] = [];
  for (let row = 0; row < size; row++) {
    const refs = Array.from({ length: size }, (_, column) => nodeId(row, column));
    ways.push({ id: row + 1, refs, tags: streetTags(rowKind(row), `${row + 1} Street`, row) });
  }
  for (let column = 0; column < size; column++) {
    const refs = Array.from({ length: size }, (_, row) => nodeId(row, column));
    ways.push({ id: size + column + 1, refs, tags: streetTags(columnKind(column), `Avenue ${column + 1}`, column) });
  }
  return { nodes, ways, relations: [] };
}

/** Builds the n x n grid city with the real builder; returns the graph file's path. */
export async function buildGridCity(size: number, onStage?: StageListener): Promise<string> {
  const workDir = await mkdtemp(join(tmpdir(), `grid-city-${size}-`));
  const extract = join(workDir, 'grid.osm.pbf');
  await writeFile(extract, encodePbf(gridCityElements(size)));
  const west = ORIGIN_LON_E7 / 1e7 - 0.01;
  const south = ORIGIN_LAT_E7 / 1e7 - 0.01;
  const east = (ORIGIN_LON_E7 + size * LON_STEP_E7) / 1e7 + 0.01;
  const north = (ORIGIN_LAT_E7 + size * LAT_STEP_E7) / 1e7 + 0.01;
  const city: BuildableCity = {
    ...buildableCity('new-york'),
    boundary: [[west, south], [east, south], [east, north], [west, north], [west, south]],
    graph: { extracts: [extract], nightlySources: [] },
  };
  const result = await buildCity({ city, dataPath: workDir, outDir: workDir, now: new Date('2026-11-21T00:00:00Z'), onStage });
  return result.graphPath;
}
