import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCity } from '../../graph-builder/build.ts';
import { OsmInputError } from '../../graph-builder/osm/types.ts';
import { readOsmFile } from '../../graph-builder/osm/reader.ts';
import { writeFileAtomically } from '../../graph-builder/writer.ts';
import { fixtureCity, fixturePath } from './helpers.ts';
import { encodePbf, type OsmElements } from '../../graph-builder/osm/pbf-writer.ts';

let workDir: string;
const cut = (bytes: Buffer, share: number): Buffer => bytes.subarray(0, Math.floor(bytes.length * share));

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1)).sort();
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bad-input-'));
  const xml = await readFile(fixturePath('restrictions.osm'));
  const elements: OsmElements = { nodes: [], ways: [], relations: [] };
  await readOsmFile(fixturePath('restrictions.osm'), {
    node: (id, lonE7, latE7, tags) => elements.nodes.push({ id, lonE7, latE7, tags }),
    way: (id, refs, tags) => elements.ways.push({ id, refs, tags }),
    relation: (id, members, tags) => elements.relations.push({ id, members, tags }),
  });
  const pbf = encodePbf(elements);
  await writeFile(join(workDir, 'truncated.osm'), cut(xml, 0.6));
  await writeFile(join(workDir, 'truncated.osm.pbf'), cut(pbf, 0.7));
  await writeFile(join(workDir, 'truncated.osm.gz'), cut(await readFile(fixturePath('restrictions.osm.gz')), 0.5));
  await writeFile(join(workDir, 'truncated.osm.bz2'), cut(await readFile(fixturePath('restrictions.osm.bz2')), 0.5));
  await writeFile(join(workDir, 'garbage.osm.pbf'), Buffer.from('this is not OpenStreetMap data at all, not even close'));
  await writeFile(join(workDir, 'empty.osm'), Buffer.alloc(0));
  await writeFile(join(workDir, 'not-osm.xml'), '<html><body>Not found</body></html>');
});

describe('bad input files', () => {
  const cases: [string, RegExp][] = [
    ['truncated.osm', /truncated\.osm: malformed XML/],
    ['truncated.osm.pbf', /truncated\.osm\.pbf: truncated PBF file/],
    ['truncated.osm.gz', /truncated\.osm\.gz: cannot read gzip data: corrupt or truncated/],
    ['truncated.osm.bz2', /truncated\.osm\.bz2: cannot read bzip2 data: corrupt or truncated/],
    ['garbage.osm.pbf', /garbage\.osm\.pbf: not a valid PBF file/],
    ['empty.osm', /empty\.osm: file is empty/],
    ['not-osm.xml', /not-osm\.xml: not an OSM XML file/],
    ['missing.osm', /missing\.osm: cannot read input file/],
  ];

  it.each(cases)('%s fails with a clear error naming the file', async (name, message) => {
    const failure = readOsmFile(join(workDir, name), { way: () => {}, node: () => {} });
    await expect(failure).rejects.toBeInstanceOf(OsmInputError);
    await expect(failure).rejects.toThrow(message);
  });

  it('leaves the previous graph in place and no partial file when a build fails', async () => {
    const outDir = join(workDir, 'out');
    const good = await buildCity({ city: fixtureCity([fixturePath('restrictions.osm')]), dataPath: workDir, outDir });
    const before = await listFiles(outDir);
    const pointerBefore = await readFile(join(outDir, 'cities/london/current.json'), 'utf8');
    await expect(buildCity({ city: fixtureCity(['truncated.osm.pbf']), dataPath: workDir, outDir })).rejects.toThrow(/truncated PBF/);
    expect(await listFiles(outDir)).toEqual(before);
    expect(await readFile(join(outDir, 'cities/london/current.json'), 'utf8')).toBe(pointerBefore);
    expect(before).toContain(good.pointer.key);
  });

  it('removes the temporary file when the final rename fails', async () => {
    const dir = join(workDir, 'rename');
    await mkdir(join(dir, 'target.graph'), { recursive: true }); // a directory where the file should go
    await expect(writeFileAtomically(join(dir, 'target.graph'), new Uint8Array(8))).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['target.graph']);
  });
});
