import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildableCity } from '../../graph-builder/cities.ts';
import { sharedDataPath } from '../../core/paths.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { buildCity } from '../../graph-builder/build.ts';
import { loadDem, parseOsmElevation } from '../../graph-builder/elevation-sources.ts';
import { fixturePath } from './helpers.ts';

const demPath = join(sharedDataPath(), buildableCity('sf-bay').graph.dem!);

describe('OSM ele', () => {
  it('reads metres and feet', () => {
    expect(parseOsmElevation('12')).toBe(12);
    expect(parseOsmElevation('12.5 m')).toBe(12.5);
    expect(parseOsmElevation("100'")).toBeCloseTo(30.48);
    expect(parseOsmElevation('high')).toBeNaN();
    expect(parseOsmElevation(undefined)).toBeNaN();
  });
});

describe.skipIf(!existsSync(demPath))('San Francisco DEM', () => {
  it('samples known heights and nothing outside the raster', async () => {
    const dem = await loadDem(demPath);
    expect(dem.sample(-122.3937, 37.7955)).toBeLessThan(10); // Ferry Building
    expect(dem.sample(-122.4477, 37.7544)).toBeGreaterThan(200); // Twin Peaks
    expect(dem.sample(-122.3, 37.808)).toBeNaN(); // West Oakland, across the bay
  });

  it('gives a graph node elevations and climbs, and says the DEM was the source', async () => {
    const city = { ...buildableCity('sf-bay'), graph: { extracts: [fixturePath('sf-hill.osm')], dem: demPath, nightlySources: [] } };
    const result = await buildCity({ city, dataPath: sharedDataPath(), outDir: await mkdtemp(join(tmpdir(), 'dem-')) });
    const graph = openGraph(new Uint8Array(await readFile(result.graphPath)));
    expect(graph.header.elevation).toEqual({ source: 'dem', nodes_by_source: { dem: 2, osm: 0, flat: 0 } });
    const segment = 0;
    const climbMetres = graph.segmentAscent[segment]! / 10;
    const descentMetres = graph.segmentDescent[segment]! / 10;
    expect(climbMetres).toBeGreaterThan(150);
    expect(climbMetres - descentMetres).toBeCloseTo(graph.nodeElevation[graph.edgeHead[graph.segmentForwardEdge[segment]!]!]! - graph.nodeElevation[graph.edgeTail[graph.segmentForwardEdge[segment]!]!]!, 0);
  });
});
