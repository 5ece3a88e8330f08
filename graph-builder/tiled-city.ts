import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildableCity, type BuildableCity } from './city-recipes.ts';
import { encodePbf, type OsmElements } from './osm/pbf-writer.ts';
import { readOsmFile } from './osm/reader.ts';

/**
 * The city-scale test city: the Lower Manhattan extract repeated on a tiles x tiles grid. The
 * builder's benchmark times its build (test/bench/graph-build.ts); the routing benchmark routes on
 * it (test/bench/city-scale.ts).
 */

/**
 * The Lower Manhattan extract repeated on a tiles x tiles grid, ids offset per copy, one PBF file
 * per copy (so connectivity pruning keeps each copy's network, as it keeps each real extract's).
 */
export async function tiledExtracts(path: string, tiles: number, workDir: string): Promise<{ paths: string[]; bytes: number; nodes: number; ways: number }> {
  const original: OsmElements = { nodes: [], ways: [], relations: [] };
  await readOsmFile(path, {
    node: (id, lonE7, latE7, tags) => original.nodes.push({ id, lonE7, latE7, tags }),
    way: (id, refs, tags) => original.ways.push({ id, refs: [...refs], tags }),
    relation: (id, members, tags) => original.relations.push({ id, members: [...members], tags }),
  });
  const paths: string[] = [];
  let bytes = 0;
  for (let tile = 0; tile < tiles * tiles; tile++) {
    const offset = tile * 1e11;
    const lonShift = (tile % tiles) * 700_000; // 0.07 degrees: the extract is 0.063 wide
    const latShift = Math.floor(tile / tiles) * 400_000; // 0.04 degrees: it is 0.035 high
    const copy: OsmElements = {
      nodes: original.nodes.map((node) => ({ ...node, id: node.id + offset, lonE7: node.lonE7 + lonShift, latE7: node.latE7 + latShift })),
      ways: original.ways.map((way) => ({ ...way, id: way.id + offset, refs: way.refs.map((ref) => ref + offset) })),
      relations: original.relations.map((relation) => ({ ...relation, id: relation.id + offset, members: relation.members.map((m) => ({ ...m, ref: m.ref + offset })) })),
    };
    const encoded = encodePbf(copy);
    const tilePath = join(workDir, `tile-${tile}.osm.pbf`);
    await writeFile(tilePath, encoded);
    paths.push(tilePath);
    bytes += encoded.length;
  }
  return { paths, bytes, nodes: original.nodes.length * tiles * tiles, ways: original.ways.length * tiles * tiles };
}

/** The tiled city, its extracts written into `workDir`, with a boundary around every copy. */
export async function tiledCity(dataPath: string, tiles: number, workDir: string): Promise<{ city: BuildableCity; tiled: Awaited<ReturnType<typeof tiledExtracts>> }> {
  const source = join(dataPath, buildableCity('new-york').graph.extracts[1]!);
  const tiled = await tiledExtracts(source, tiles, workDir);
  const lonSpan = tiles * 0.07 + 0.1;
  const latSpan = tiles * 0.04 + 0.1;
  const box: [number, number][] = [[-74.04, 40.69], [-74.04 + lonSpan, 40.69], [-74.04 + lonSpan, 40.69 + latSpan], [-74.04, 40.69 + latSpan], [-74.04, 40.69]];
  return { city: { ...buildableCity('new-york'), boundary: box, graph: { extracts: tiled.paths, nightlySources: [] } }, tiled };
}
