import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildableCity, type ElevationModelSource } from '../../graph-builder/city-recipes.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { NODE_ELEVATION_KNOWN } from '../../core/graph/flags.ts';
import { openGraph, type Graph } from '../../core/graph/layout.ts';
import { buildCity } from '../../graph-builder/build.ts';
import { fillVoids, loadElevationModel, MAX_VOID_FILL_SAMPLES, parseOsmElevation } from '../../graph-builder/stages/elevation/models.ts';
import { fixturePath } from './helpers.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

const data = (path: string): string => join(sharedDataPath(), path);
const sfModel = buildableCity('sf-bay').graph.elevation![0]!;
const nycTile = data('elevation/nyc-srtm3/N40W074.hgt');
const londonTile = data('elevation/london-srtm3/N51W001.hgt');
const copernicus = data('elevation/london-copernicus-glo90/Copernicus_DSM_30_N51_00_W001_00_DEM.tif');

describe('OSM ele', () => {
  it('reads metres and feet', () => {
    expect(parseOsmElevation('12')).toBe(12);
    expect(parseOsmElevation('12.5 m')).toBe(12.5);
    expect(parseOsmElevation("100'")).toBeCloseTo(30.48);
    expect(parseOsmElevation('high')).toBeNaN();
    expect(parseOsmElevation(undefined)).toBeNaN();
  });
});

describe('void filling', () => {
  it('fills a hole from its rim inwards, and leaves voids far from any value unknown', () => {
    // 5 x 5 at 10 m with a 3 x 3 hole in the middle.
    const grid = Float32Array.from({ length: 25 }, (_, i) => (i % 5 >= 1 && i % 5 <= 3 && Math.floor(i / 5) >= 1 && Math.floor(i / 5) <= 3 ? NaN : 10));
    grid[0] = 20;
    expect(fillVoids(grid, 5, 5)).toBe(9);
    expect([...grid].every((value) => !Number.isNaN(value))).toBe(true);
    expect(grid[6]).toBeCloseTo((20 + 10 * 4) / 5); // a corner of the hole: five known neighbours
    expect(grid[12]).toBeGreaterThan(10); // the centre, from the filled ring around it
    expect(grid[12]).toBeLessThan(grid[6]!);

    const row = Float32Array.from({ length: MAX_VOID_FILL_SAMPLES + 3 }, (_, i) => (i === 0 ? 5 : NaN));
    expect(fillVoids(row, row.length, 1)).toBe(MAX_VOID_FILL_SAMPLES);
    expect(row[MAX_VOID_FILL_SAMPLES]).toBe(5);
    expect(row[MAX_VOID_FILL_SAMPLES + 1]).toBeNaN();
  });
});

describe.skipIf(!sharedDataPresent(sfModel.file))('the San Francisco model (USGS, GeoTIFF, pixel-is-area)', () => {
  it('samples known heights and nothing outside the raster', async () => {
    const model = await loadElevationModel(data(sfModel.file), sfModel);
    expect(model.sample(-122.3937, 37.7955)).toBeLessThan(10); // Ferry Building
    expect(model.sample(-122.4477, 37.7544)).toBeGreaterThan(200); // Twin Peaks
    expect(model.sample(-122.3, 37.808)).toBeNaN(); // West Oakland, across the bay
    expect(model.smoothingMetres).toBe(0); // a terrain model: read as it is
  });
});

describe.skipIf(!sharedDataPresent(nycTile, londonTile))('SRTM tiles', () => {
  it('read big-endian samples from the north edge down, placed by the tile\'s name', async () => {
    const tile = await loadElevationModel(nycTile, { surface: false });
    expect(tile.bbox).toEqual([-74, 40, -73, 41]);
    expect(tile.sample(-73.9665, 40.7812)).toBeGreaterThan(28); // Central Park, the Great Lawn
    expect(tile.sample(-73.9665, 40.7812)).toBeLessThan(40);
    expect(tile.sample(-73.9903, 40.6584)).toBeGreaterThan(40); // Green-Wood Cemetery's hills
    expect(tile.sample(-73.78, 40.64)).toBeLessThan(12); // JFK
    expect(tile.sample(-74.01, 40.7)).toBeNaN(); // west of the tile: N40W075
    const london = await loadElevationModel(londonTile, { surface: false });
    expect(london.sample(-0.1469, 51.5713)).toBeGreaterThan(110); // Highgate
    expect(london.sample(-0.1276, 51.5007)).toBeLessThan(25); // Westminster
  });

  it('have their voids filled: Times Square is a void in the tile', async () => {
    const raw = await readFile(nycTile);
    const size = 1201;
    const [lon, lat] = [-73.9855, 40.758];
    const row = Math.round((41 - lat) * (size - 1));
    const column = Math.round((lon + 74) * (size - 1));
    expect(raw.readInt16BE(2 * (row * size + column))).toBe(-32768);
    const height = (await loadElevationModel(nycTile, { surface: false })).sample(lon, lat);
    expect(height).toBeGreaterThan(5);
    expect(height).toBeLessThan(60);
  });

  it('are smoothed into ground heights as surface models', async () => {
    const surface = await loadElevationModel(nycTile, { surface: true });
    expect(surface.smoothingMetres).toBeCloseTo(surface.sampleMetres, 5);
    expect(surface.sampleMetres).toBeCloseTo(92.7, 0);
    // A 5 x 5 mean: never beyond the raw surface's extremes around the point.
    const raw = await loadElevationModel(nycTile, { surface: false });
    const offsets = [-2, -1, 0, 1, 2];
    const around = offsets.flatMap((dy) => offsets.map((dx) => raw.sample(-73.9855 + dx / 1200, 40.758 + dy / 1200)));
    const smoothed = surface.sample(-73.9855, 40.758);
    expect(smoothed).toBeGreaterThanOrEqual(Math.min(...around) - 1e-6);
    expect(smoothed).toBeLessThanOrEqual(Math.max(...around) + 1e-6);
  });
});

describe.skipIf(!sharedDataPresent(copernicus))('the Copernicus tile (GeoTIFF, pixel-is-point)', () => {
  it('places its first sample on the tile\'s corner', async () => {
    const model = await loadElevationModel(copernicus, { surface: false });
    expect(model.bbox).toEqual([-1, 51, expect.closeTo(0, 9), 52]);
    expect(model.sample(-0.1469, 51.5713)).toBeGreaterThan(110); // Highgate
    expect(model.sample(-1.01, 51.5)).toBeNaN();
  });
});

async function buildWith(extract: string, elevation: readonly ElevationModelSource[]): Promise<Graph> {
  const city = { ...buildableCity('sf-bay'), graph: { extracts: [fixturePath(extract)], elevation, nightlySources: [] } };
  const result = await buildCity({ city, dataPath: sharedDataPath(), outDir: await mkdtemp(join(tmpdir(), 'elevation-')) });
  return openGraph(new Uint8Array(await readFile(result.graphPath)));
}

const nodeNear = (graph: Graph, lon: number): number => {
  for (let v = 0; v < graph.nodeCount; v++) if (Math.abs(graph.nodeCoords[2 * v]! / 1e7 - lon) < 1e-6) return v;
  throw new Error(`no node at ${lon}`);
};

describe.skipIf(!sharedDataPresent(sfModel.file))('heights in a graph', () => {
  it('gives a graph node elevations and climbs, and says which model was the source', async () => {
    const graph = await buildWith('sf-hill.osm', [sfModel]);
    expect(graph.header.elevation).toEqual({ source: 'dem', nodes_by_source: { dem: 2, osm: 0, flat: 0 }, models: [{ name: 'sf-usgs-7.5min-dem/sf_usgs24k_dem_merged_wgs84_metres.tif', nodes: 2 }] });
    const segment = 0;
    const climbMetres = graph.segmentAscent[segment]! / 10;
    const descentMetres = graph.segmentDescent[segment]! / 10;
    expect(climbMetres).toBeGreaterThan(150);
    const forward = graph.segmentForwardEdge[segment]!;
    expect(climbMetres - descentMetres).toBeCloseTo(graph.nodeElevation[graph.edgeHead[forward]!]! - graph.nodeElevation[graph.edgeTail[forward]!]!, 0);
    for (let v = 0; v < graph.nodeCount; v++) expect(graph.nodeFlags[v]! & NODE_ELEVATION_KNOWN).toBe(NODE_ELEVATION_KNOWN);
  });

  it('leaves nodes beyond the model unknown, level with their neighbours, and counts no climb to or between them', async () => {
    const graph = await buildWith('sf-model-edge.osm', [sfModel]);
    expect(graph.header.elevation.nodes_by_source).toEqual({ dem: 3, osm: 0, flat: 2 });
    const [inside, edge, shore, across, outside] = [-122.4, -122.39, -122.38, -122.37, -122.36].map((lon) => nodeNear(graph, lon)) as [number, number, number, number, number];
    for (const v of [inside, edge, shore]) expect(graph.nodeFlags[v]! & NODE_ELEVATION_KNOWN).toBe(NODE_ELEVATION_KNOWN);
    for (const v of [across, outside]) expect(graph.nodeFlags[v]! & NODE_ELEVATION_KNOWN).toBe(0);
    expect(graph.nodeElevation[across]).toBeCloseTo(graph.nodeElevation[shore]!, 3);
    expect(graph.nodeElevation[outside]).toBeCloseTo(graph.nodeElevation[shore]!, 3);
    const climbOf = (wayId: number): number => {
      for (let s = 0; s < graph.segmentWayId.length; s++) if (graph.segmentWayId[s] === wayId) return graph.segmentAscent[s]! + graph.segmentDescent[s]!;
      throw new Error(`no segment of way ${wayId}`);
    };
    expect(climbOf(80)).toBeGreaterThan(0); // Potrero Hill's slope down to the bay
    expect(climbOf(82)).toBe(0);
    expect(climbOf(83)).toBe(0);
  });

  it('is flat everywhere without a model', async () => {
    const graph = await buildWith('sf-hill.osm', []);
    expect(graph.header.elevation).toEqual({ source: 'flat', nodes_by_source: { dem: 0, osm: 0, flat: 2 }, models: [] });
    expect([...graph.nodeElevation]).toEqual([0, 0]);
    expect(graph.segmentAscent[0]! + graph.segmentDescent[0]!).toBe(0);
  });
});
