import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCity } from '../../graph-builder/build.ts';
import { cropExtract, metroExtracts } from '../../graph-builder/metro-city.ts';
import { encodePbf, type OsmElements } from '../../graph-builder/osm/pbf-writer.ts';
import { readOsmFile } from '../../graph-builder/osm/reader.ts';
import { fixtureCity } from './helpers.ts';

/**
 * The metro benchmark's city (graph-builder/metro-city.ts): a crop of an extract, streets cut at
 * its sides, tiled with alternate tiles mirrored so the cut streets meet at shared seam nodes.
 * Here on a street grid in London of 11 x 9 nodes, whose outer rows and columns lie outside the crop.
 */

const CROP = { west: -1_300_000, east: -1_200_000, south: 515_000_000, north: 515_060_000 } as const;
const lonAt = (i: number) => -1_310_000 + i * 12_000;
const latAt = (j: number) => 514_995_000 + j * 10_000;
const nodeId = (i: number, j: number) => 1000 + j * 100 + i;
/** A way inside the crop that leaves it through the east side and comes back in. */
const WANDERING = 9001;

function streetGrid(): OsmElements {
  const nodes: OsmElements['nodes'] = [];
  const ways: OsmElements['ways'] = [];
  for (let j = 0; j <= 8; j++) for (let i = 0; i <= 10; i++) nodes.push({ id: nodeId(i, j), lonE7: lonAt(i), latE7: latAt(j), tags: null });
  for (let j = 0; j <= 8; j++) ways.push({ id: 100 + j, refs: Array.from({ length: 11 }, (_, i) => nodeId(i, j)), tags: { highway: 'residential', name: `Row ${j}` } });
  for (let i = 0; i <= 10; i++) ways.push({ id: 200 + i, refs: Array.from({ length: 9 }, (_, j) => nodeId(i, j)), tags: { highway: 'residential', name: `Column ${i}` } });
  ways.push({ id: WANDERING, refs: [nodeId(9, 2), nodeId(10, 3), nodeId(9, 4)], tags: { highway: 'footway' } });
  // Two short paths wholly inside the crop, meeting at the node the restrictions turn at.
  ways.push({ id: 301, refs: [nodeId(4, 3), nodeId(5, 4)], tags: { highway: 'path' } }, { id: 302, refs: [nodeId(5, 4), nodeId(6, 5)], tags: { highway: 'path' } });
  const restriction = (id: number, from: number, to: number) => ({
    id,
    members: [{ type: 'way' as const, ref: from, role: 'from' }, { type: 'node' as const, ref: nodeId(5, 4), role: 'via' }, { type: 'way' as const, ref: to, role: 'to' }],
    tags: { type: 'restriction', restriction: 'no_left_turn' },
  });
  return { nodes, ways, relations: [restriction(1, 301, 302), restriction(2, WANDERING, 302), restriction(3, 104, 205)] };
}

describe('cropping an extract', () => {
  const cropped = cropExtract(streetGrid(), CROP);
  const way = (id: number) => cropped.elements.ways.filter((candidate) => candidate.id === id);
  const crossing = (ref: number) => cropped.crossings[-ref - 1]!;

  it('cuts a street crossing the crop exactly on its sides and keeps the nodes inside', () => {
    const [row] = way(104);
    expect(row!.refs.slice(1, -1)).toEqual(Array.from({ length: 9 }, (_, i) => nodeId(i + 1, 4)));
    expect(crossing(row!.refs[0]!)).toMatchObject({ side: 'west', lonE7: CROP.west, latE7: latAt(4) });
    expect(crossing(row!.refs.at(-1)!)).toMatchObject({ side: 'east', lonE7: CROP.east, latE7: latAt(4) });
    const [column] = way(203);
    expect(crossing(column!.refs[0]!)).toMatchObject({ side: 'south', lonE7: lonAt(3), latE7: CROP.south });
    expect(cropped.elements.nodes.some((node) => node.id === nodeId(10, 4))).toBe(false);
  });

  it('drops the streets wholly outside and splits one that leaves and comes back', () => {
    expect(way(100)).toEqual([]);
    expect(way(210)).toEqual([]);
    const pieces = cropped.elements.ways.filter((candidate) => candidate.tags.highway === 'footway');
    expect(pieces).toHaveLength(2);
    expect(pieces.map((piece) => crossing(piece.refs[0]! < 0 ? piece.refs[0]! : piece.refs.at(-1)!).side)).toEqual(['east', 'east']);
  });

  it('keeps the turn restrictions on whole ways only', () => {
    expect(cropped.elements.relations.map((relation) => relation.id)).toEqual([1]);
  });
});

describe('tiles joined at their seams', () => {
  let tiles: OsmElements[];
  let paths: string[];
  beforeAll(async () => {
    const workDir = await mkdtemp(join(tmpdir(), 'metro-city-test-'));
    const source = join(workDir, 'grid.osm.pbf');
    await writeFile(source, encodePbf(streetGrid()));
    ({ paths } = await metroExtracts(source, 2, 2, workDir, CROP));
    tiles = await Promise.all(paths.map(async (path) => {
      const elements: OsmElements = { nodes: [], ways: [], relations: [] };
      await readOsmFile(path, {
        node: (id, lonE7, latE7, tags) => elements.nodes.push({ id, lonE7, latE7, tags }),
        way: (id, refs, tags) => elements.ways.push({ id, refs: [...refs], tags }),
      });
      return elements;
    }));
  });

  it('mirrors alternate tiles about the seam they share', () => {
    const [first, second, third] = tiles;
    const at = (tile: OsmElements, id: number) => tile.nodes.find((node) => node.id === id)!;
    const width = CROP.east - CROP.west;
    const height = CROP.north - CROP.south;
    expect(at(first!, nodeId(9, 4))).toMatchObject({ lonE7: lonAt(9), latE7: latAt(4) });
    // The second column is mirrored east-west: its copy of a node lies as far east of the seam as the first's lies west.
    expect(at(second!, 1e11 + nodeId(9, 4))).toMatchObject({ lonE7: CROP.east + (CROP.east - lonAt(9)), latE7: latAt(4) });
    // The second row is mirrored north-south.
    expect(at(third!, 2e11 + nodeId(1, 6))).toMatchObject({ lonE7: lonAt(1), latE7: CROP.north + (CROP.north - latAt(6)) });
    expect(CROP.west + 2 * width).toBeGreaterThan(at(second!, 1e11 + nodeId(1, 1)).lonE7);
    expect(CROP.south + 2 * height).toBeGreaterThan(at(third!, 2e11 + nodeId(1, 1)).latE7);
  });

  it('ends each cut street on a seam node the neighbouring tile shares', () => {
    const seams = tiles.at(-1)!;
    const [first, second] = tiles;
    const rowEnd = (tile: OsmElements, wayId: number) => tile.ways.find((way) => way.id === wayId)!.refs.at(-1)!;
    const seamNode = rowEnd(first!, 104);
    expect(rowEnd(second!, 1e11 + 104)).toBe(seamNode);
    expect(seams.nodes.find((node) => node.id === seamNode)).toMatchObject({ lonE7: CROP.east, latE7: latAt(4) });
    const uses = new Map<number, number>();
    for (const tile of tiles.slice(0, 4)) for (const way of tile.ways) for (const ref of [way.refs[0]!, way.refs.at(-1)!]) uses.set(ref, (uses.get(ref) ?? 0) + 1);
    const shared = seams.nodes.filter((node) => uses.get(node.id) === 2).length;
    // Inner seams: per row of tiles, the east side's cuts (6 streets, and the footway twice); per column of tiles, the north side's (9 streets).
    expect(shared).toBe(2 * (6 + 2) + 2 * 9);
  });

  it('builds into one network the connectivity stage keeps whole', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'metro-city-build-'));
    const boundary: [number, number][] = [[-0.14, 51.49], [-0.1, 51.49], [-0.1, 51.52], [-0.14, 51.52], [-0.14, 51.49]];
    const { report } = await buildCity({ city: fixtureCity(paths, { boundary }), dataPath: outDir, outDir, now: new Date('2026-11-20T12:00:00Z') });
    expect(report.components.cycling.kept).toHaveLength(1);
    expect(report.components.cycling.removed).toBe(0);
    expect(report.components.cycling.kept[0]!.edges).toBe(report.edges);
  });
});
