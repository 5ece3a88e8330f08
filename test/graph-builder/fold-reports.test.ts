import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import { EDGE_CYCLING, EDGE_REVERSED, EDGE_WALKING } from '../../core/graph/flags.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { buildCity } from '../../graph-builder/build.ts';
import { foldedReports } from '../../graph-builder/nightly-handler.ts';
import { cityInputs } from '../../graph-builder/source-hash.ts';
import { edgesOfWay, fixtureCity, fixtureDir } from './helpers.ts';

/**
 * The nightly rebuild folds permanent accepted reports into the graph (core/report-avoidances.ts): a
 * closed road leaves the cycling network, a one-way report makes the way one-way for bicycles,
 * the graph records which reports it holds, and its source hash changes so the job rebuilds.
 */

const item = (report: string, effect: AvoidanceItem['effect'], wayId: number | null, until: string | null = null, againstGeometry = false): AvoidanceItem => ({
  city: 'london',
  report_id: report,
  effect,
  issue_type: effect === 'unsafe' ? 'road_unsafe' : 'road_closed',
  issue_subtype: null,
  location: [-0.1995, 51.5097],
  way_id: wayId,
  road_name: null,
  until,
  accepted_at: '2026-11-20T10:00:00Z',
  ...(againstGeometry ? { against_geometry: true } : {}),
});

describe('folding accepted reports into the graph', () => {
  it('takes only permanent closures and one-way reports on a located way', () => {
    const folded = foldedReports([
      item('b-closed', 'closed', 31),
      item('a-one-way', 'one_way', 33, null, true),
      item('temporary', 'closed', 34, '2026-12-01T18:00:00Z'),
      item('hazard', 'unsafe', 30),
      item('turn', 'no_manoeuvre', 30),
      item('unlocated', 'closed', null),
    ]);
    expect(folded).toEqual({ reports: ['a-one-way', 'b-closed'], wayTags: { '31': { bicycle: 'no' }, '33': { 'oneway:bicycle': '-1' } } });
    expect(foldedReports([item('hazard', 'unsafe', 30)])).toBeNull();
  });

  it('closes the way to bicycles, makes a way one-way for them, records the reports and changes the source hash', async () => {
    const files = ['u-turn-cycle-tracks.osm'];
    const plain = fixtureCity(files);
    const folded = foldedReports([item('closed-cross-street', 'closed', 31), item('loop-one-way', 'one_way', 33)])!;
    const city = fixtureCity(files);
    const withReports = { ...city, graph: { ...city.graph, folded } };
    const outDir = await mkdtemp(join(tmpdir(), 'folded-'));
    const result = await buildCity({ city: withReports, dataPath: fixtureDir, outDir, now: new Date('2026-11-20T12:00:00Z') });
    const graph = openGraph(new Uint8Array(await readFile(result.graphPath)));

    expect(graph.header.folded_reports).toEqual(['closed-cross-street', 'loop-one-way']);
    // Cross Street (31) stays a street people walk; no bicycle may use it.
    const cross = edgesOfWay(graph, 31);
    expect(cross.length).toBeGreaterThan(0);
    for (const edge of cross) {
      expect(graph.edgeFlags[edge]! & EDGE_CYCLING).toBe(0);
      expect(graph.edgeFlags[edge]! & EDGE_WALKING).not.toBe(0);
    }
    // Loop Lane (33) is ridden only along its drawing.
    const loop = edgesOfWay(graph, 33).filter((edge) => graph.edgeFlags[edge]! & EDGE_CYCLING);
    expect(loop.length).toBeGreaterThan(0);
    expect(loop.every((edge) => !(graph.edgeFlags[edge]! & EDGE_REVERSED))).toBe(true);

    expect((await cityInputs(withReports, fixtureDir)).hash).not.toBe((await cityInputs(plain, fixtureDir)).hash);
  });
});
