import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { sourceName, supersedes } from '../../graph-builder/stages/read/collect.ts';
import { readOsmFile } from '../../graph-builder/osm/reader.ts';
import { EDGE_CYCLING } from '../../core/graph/flags.ts';
import type { Graph } from '../../core/graph/layout.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { realGraph } from '../routing/real-graphs.ts';
import { buildFixture, edgesOfWay, type BuiltFixture } from './helpers.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

/**
 * Extracts merged by OSM id (docs/routing.md, "Access and barriers"): where two extracts hold the
 * same way or node, the newer version wins; where either copy has no version, the extract listed
 * first wins.
 */

const wayName = (graph: Graph, wayId: number): string => graph.string(graph.segmentName[graph.edgeSegment[edgesOfWay(graph, wayId)[0]!]!]!);
const cyclable = (graph: Graph, wayId: number): boolean => edgesOfWay(graph, wayId).some((edge) => (graph.edgeFlags[edge]! & EDGE_CYCLING) !== 0);
const nodeAt = (graph: Graph, lon: number, lat: number): boolean => {
  for (let node = 0; node < graph.nodeCount; node++) {
    if (graph.nodeCoords[2 * node] === Math.round(lon * 1e7) && graph.nodeCoords[2 * node + 1] === Math.round(lat * 1e7)) return true;
  }
  return false;
};

describe('extracts holding the same OSM ids', () => {
  let built: BuiltFixture;
  beforeAll(async () => {
    built = await buildFixture(['versions-a.osm', 'versions-b.osm']);
  });

  it('compares versions only when both copies have one', () => {
    expect(supersedes(5, 3)).toBe(true);
    expect(supersedes(3, 5)).toBe(false);
    expect(supersedes(5, 5)).toBe(false);
    expect(supersedes(9, 0)).toBe(false);
    expect(supersedes(0, 9)).toBe(false);
  });

  it('take the newer version of a way from whichever extract holds it', () => {
    const { graph } = built;
    // Way 100: version 3 in the first extract closes it to bicycles, version 5 in the second opens it.
    expect(wayName(graph, 100)).toBe('Newer Hundred');
    expect(cyclable(graph, 100)).toBe(true);
    // Way 101: the first extract's version 7 beats the second's version 4.
    expect(wayName(graph, 101)).toBe('Newer Hundred One');
    expect(cyclable(graph, 101)).toBe(true);
    // Way 102: the newer version closes it to bicycles and the older copy does not reopen it.
    expect(wayName(graph, 102)).toBe('Newer Hundred Two');
    expect(cyclable(graph, 102)).toBe(false);
  });

  it('keep the first extract\'s copy where one of the two has no version', () => {
    expect(wayName(built.graph, 103)).toBe('Unversioned Hundred Three');
    expect(cyclable(built.graph, 103)).toBe(false);
  });

  it('take the newer version of a node\'s position', () => {
    const { graph } = built;
    expect(nodeAt(graph, -0.099, 51.501)).toBe(true); // node 3: version 4 over 3
    expect(nodeAt(graph, -0.0985, 51.5015)).toBe(false);
    expect(nodeAt(graph, -0.1001, 51.5011)).toBe(true); // node 4: version 2 over 1
    expect(nodeAt(graph, -0.1, 51.502)).toBe(true); // node 5: no version in the first extract
  });

  it('count for each extract the ways taken from it', () => {
    expect(built.report.sources.map((source) => source.new_ways)).toEqual([3, 2]);
  });
});

const newYork = buildableCity('new-york').graph.extracts.map((extract) => join(sharedDataPath(), extract));

describe.skipIf(!sharedDataPresent(...newYork))('West Street in New York', () => {
  // OSM ways of West Street (NY 9A) that the Midtown extract (about 2025, no versions) closes to
  // bicycles and Valhalla's 2015 extract still holds, versioned and open.
  const westStreet = [22903923, 95181768];

  it('stays closed to bicycles: the 2015 copy is versioned, the newer one is not, so the newer extract listed first decides', async () => {
    const copies = new Map<string, { version: number; bicycle: string | undefined }>();
    for (const path of newYork) {
      await readOsmFile(path, {
        wayKey: 'highway',
        way(id, _refs, tags, version) {
          if (westStreet.includes(id)) copies.set(`${sourceName(path)}:${id}`, { version, bicycle: tags.bicycle });
        },
      });
    }
    for (const id of westStreet) {
      expect(copies.get(`donnawang47-Thesis/manhattan.osm.pbf:${id}`)).toEqual({ version: 0, bicycle: 'no' });
      expect(copies.get(`valhalla/nyc.osm.pbf:${id}`)).toMatchObject({ bicycle: undefined });
      expect(copies.get(`valhalla/nyc.osm.pbf:${id}`)!.version).toBeGreaterThan(0);
    }
    const graph = realGraph('new-york').network.graph;
    for (const id of westStreet) expect(cyclable(graph, id)).toBe(false);
  });
});
