import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { readOsmFile, type ReadProgress } from '../../graph-builder/osm/reader.ts';
import { encodePbf, type OsmElements } from '../../graph-builder/osm/pbf-writer.ts';
import { fixturePath } from './helpers.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

async function readAll(path: string, onProgress?: (progress: ReadProgress) => void): Promise<OsmElements> {
  const elements: OsmElements = { nodes: [], ways: [], relations: [] };
  await readOsmFile(path, {
    node: (id, lonE7, latE7, tags) => elements.nodes.push({ id, lonE7, latE7, tags }),
    way: (id, refs, tags) => elements.ways.push({ id, refs: [...refs], tags }),
    relation: (id, members, tags) => elements.relations.push({ id, members: [...members], tags }),
  }, onProgress);
  return elements;
}

let xml: OsmElements;
let workDir: string;

beforeAll(async () => {
  xml = await readAll(fixturePath('restrictions.osm'));
  workDir = await mkdtemp(join(tmpdir(), 'osm-reader-'));
});

describe('OSM readers', () => {
  it('read OSM XML: nodes with coordinates in 1e-7 degrees, ways, relations with members and tags', () => {
    expect(xml.nodes).toHaveLength(8);
    expect(xml.nodes[0]).toEqual({ id: 1, lonE7: -1_000_000, latE7: 515_000_000, tags: null });
    expect(xml.ways.find((w) => w.id === 20)).toEqual({ id: 20, refs: [5, 8], tags: { highway: 'cycleway', name: 'Canal Path' } });
    expect(xml.relations.find((r) => r.id === 906)?.members).toEqual([
      { type: 'way', ref: 13, role: 'from' }, { type: 'way', ref: 11, role: 'via' }, { type: 'way', ref: 15, role: 'to' },
    ]);
  });

  it('read gzip and bzip2 compressed XML the same, recognising compression by content', async () => {
    expect(await readAll(fixturePath('restrictions.osm.gz'))).toEqual(xml);
    expect(await readAll(fixturePath('restrictions.osm.bz2'))).toEqual(xml);
  });

  it('read PBF the same as the XML it was written from, at any granularity', async () => {
    for (const granularity of [100, 1000]) {
      const path = join(workDir, `restrictions-${granularity}.osm.pbf`);
      await writeFile(path, encodePbf(xml, granularity));
      const pbf = await readAll(path);
      expect(pbf.ways).toEqual(xml.ways);
      expect(pbf.relations).toEqual(xml.relations);
      expect(pbf.nodes.map((n) => n.id)).toEqual(xml.nodes.map((n) => n.id));
      for (const [i, node] of pbf.nodes.entries()) {
        expect(Math.abs(node.lonE7 - xml.nodes[i]!.lonE7)).toBeLessThanOrEqual(granularity / 100);
        expect(Math.abs(node.latE7 - xml.nodes[i]!.latE7)).toBeLessThanOrEqual(granularity / 100);
      }
    }
  });

  it('read element versions from XML and PBF metadata, 0 where a file has none', async () => {
    const read = async (path: string) => {
      const versions: string[] = [];
      await readOsmFile(path, {
        node: (id, _lon, _lat, _tags, version) => versions.push(`n${id}@${version}`),
        way: (id, _refs, _tags, version) => versions.push(`w${id}@${version}`),
      });
      return versions;
    };
    const fromXml = await read(fixturePath('versions-a.osm'));
    expect(fromXml).toEqual(['n1@1', 'n2@1', 'n3@4', 'n4@1', 'n5@0', 'w100@3', 'w101@7', 'w102@2', 'w103@0', 'w104@1']);
    const elements: { nodes: OsmElements['nodes']; ways: OsmElements['ways'] } = { nodes: [], ways: [] };
    await readOsmFile(fixturePath('versions-a.osm'), {
      node: (id, lonE7, latE7, tags, version) => elements.nodes.push({ id, lonE7, latE7, tags, version }),
      way: (id, refs, tags, version) => elements.ways.push({ id, refs: [...refs], tags, version }),
    });
    const path = join(workDir, 'versions.osm.pbf');
    await writeFile(path, encodePbf({ ...elements, relations: [] }));
    expect(await read(path)).toEqual(fromXml);
    const unversioned = join(workDir, 'unversioned.osm.pbf');
    await writeFile(unversioned, encodePbf(xml));
    expect((await read(unversioned)).every((entry) => entry.endsWith('@0'))).toBe(true);
  });

  it('read PBF files of many blocks', async () => {
    const path = join(workDir, 'many-blocks.osm.pbf');
    const nodes = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, lonE7: i, latE7: 515_000_000 + i, tags: i % 1000 === 0 ? { highway: 'crossing' } : null }));
    await writeFile(path, encodePbf({ nodes, ways: [], relations: [] }));
    const read = await readAll(path);
    expect(read.nodes).toHaveLength(20_000);
    expect(read.nodes[19_999]).toEqual(nodes[19_999]);
    expect(read.nodes.filter((n) => n.tags).length).toBe(20);
  });

  it('report only ways with the requested key, without decoding the others', async () => {
    const path = join(workDir, 'way-key.osm.pbf');
    await writeFile(path, encodePbf({ nodes: [], ways: [{ id: 1, refs: [1, 2], tags: { building: 'yes' } }, { id: 2, refs: [1, 2], tags: { highway: 'path' } }], relations: [] }));
    const ids: number[] = [];
    await readOsmFile(path, { wayKey: 'highway', way: (id) => ids.push(id) });
    expect(ids).toEqual([2]);
  });

  it('skip node decoding when the pass has no node handler, and filter nodes by id', async () => {
    const path = join(workDir, 'filter.osm.pbf');
    await writeFile(path, encodePbf(xml));
    const seen: number[] = [];
    await readOsmFile(path, { nodeFilter: (id) => id === 3, node: (id) => seen.push(id) });
    expect(seen).toEqual([3]);
  });

  it('report progress in bytes of the file', async () => {
    const progress: ReadProgress[] = [];
    await readAll(fixturePath('restrictions.osm.gz'), (p) => progress.push(p));
    expect(progress.at(-1)).toMatchObject({ file: 'restrictions.osm.gz', bytesRead: progress.at(-1)!.totalBytes });
  });

  it('skip objects a JOSM file marks deleted', async () => {
    const path = join(workDir, 'josm.osm');
    await writeFile(path, '<osm version="0.6"><node id="1" lat="1" lon="2"/><node id="2" action="delete" lat="1" lon="2"/><node id="-5" lat="1" lon="2"/></osm>');
    expect((await readAll(path)).nodes.map((n) => n.id)).toEqual([1, -5]);
  });

  it.skipIf(!sharedDataPresent('osm/nyc/valhalla/nyc.osm.pbf'))('read a real extract with the counts its SOURCES.md gives', async () => {
    const counts = { nodes: 0, ways: 0, relations: 0 };
    await readOsmFile(join(sharedDataPath(), 'osm/nyc/valhalla/nyc.osm.pbf'), {
      node: () => counts.nodes++,
      way: () => counts.ways++,
      relation: () => counts.relations++,
    });
    expect(counts).toEqual({ nodes: 10_429, ways: 1_696, relations: 41 });
  });
});
