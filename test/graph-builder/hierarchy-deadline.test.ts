import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCity, type BuildResult } from '../../graph-builder/build.ts';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { hierarchyDeadline, PUBLISH_RESERVE_MS } from '../../graph-builder/nightly-handler.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { localMinutes } from '../../core/local-time.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import type { CostOptions } from '../../core/routing/costing/costing.ts';
import { loadGraph, type LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { HIERARCHY_METRICS } from '../../core/routing/search/hierarchy.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { randomNodeLocation, seededRandom } from '../routing/real-graphs.ts';

/**
 * A build whose time runs out in the hierarchy stage (BuildOptions.hierarchyDeadline, which the
 * nightly build sets from its invocation's end) still publishes a graph: without the hierarchies
 * it could not contract in time, with a warning, and routed exactly as the full graph is, the
 * landmarks bounding the searches instead.
 */

const BUILT_AT = new Date('2026-11-20T03:00:00Z');
const MORNING = localMinutes(2026, 6, 15, 8, 30);
const city = buildableCity('los-angeles');
let outDir: string;
let full: BuildResult;
let outOfTime: BuildResult;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'hierarchy-deadline-'));
  full = await buildCity({ city, dataPath: sharedDataPath(), outDir: join(outDir, 'full'), now: BUILT_AT });
  // A deadline already passed: the stage contracts nothing.
  outOfTime = await buildCity({ city, dataPath: sharedDataPath(), outDir: join(outDir, 'late'), now: BUILT_AT, hierarchyDeadline: 0 });
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const loaded = async (result: BuildResult): Promise<LoadedGraph> => loadGraph('los-angeles', new Uint8Array(await readFile(result.graphPath)));

describe('a build whose hierarchy stage runs out of time', () => {
  it('publishes the graph without the hierarchies it could not contract, and says so in its report', async () => {
    expect(full.report.warnings.find((warning) => warning.key === 'hierarchy_left_out_out_of_time')).toBeUndefined();
    expect(outOfTime.report.warnings.find((warning) => warning.key === 'hierarchy_left_out_out_of_time')).toEqual({
      // Every metric counted, the first three named (in the order they are contracted).
      key: 'hierarchy_left_out_out_of_time', count: HIERARCHY_METRICS.length, examples: HIERARCHY_METRICS.slice(0, 3),
    });
    expect(Object.keys((await loaded(full)).workspace.hierarchies).sort()).toEqual([...HIERARCHY_METRICS].sort());
    const late = await loaded(outOfTime);
    expect(late.workspace.hierarchies).toEqual({});
    expect(Object.keys(late.workspace.landmarks).length).toBeGreaterThan(0);
    expect(outOfTime.report.edges).toBe(full.report.edges);
  });

  it('routes every costing as the full graph does, bounded by the landmarks', async () => {
    const withHierarchies = await loaded(full);
    const withLandmarks = await loaded(outOfTime);
    const random = seededRandom(2911);
    const costings: [string, CostOptions][] = [
      ['supersafe', { profile: 'cycling', supersafe: true, night: false, departureMinute: MORNING }],
      ['direct', { profile: 'cycling', supersafe: false, night: false, departureMinute: MORNING }],
      ['walking', { profile: 'walking', supersafe: false, night: false, departureMinute: MORNING }],
    ];
    let routed = 0;
    for (let pair = 0; pair < 30; pair++) {
      const from = randomNodeLocation(withHierarchies.network, random);
      const to = randomNodeLocation(withHierarchies.network, random);
      for (const [name, options] of costings) {
        const costs = [withHierarchies, withLandmarks].map(({ network, workspace }) => {
          const costing = createCosting(network, options);
          const usable = (edge: number) => costing.usable(edge);
          const start = snap(network, usable, from);
          const end = snap(network, usable, to);
          if (!start || !end) return null;
          return findRoute(costing, workspace, positionsAt(network, usable, start), positionsAt(network, usable, end), end.location)?.cost ?? null;
        });
        if (costs[0] === null) {
          expect(costs[1], `${name} pair ${pair}`).toBeNull();
          continue;
        }
        routed++;
        expect(costs[1], `${name} pair ${pair}`).toBeCloseTo(costs[0]!, 6);
      }
    }
    expect(routed).toBeGreaterThan(60);
  });
});

describe('the nightly build\'s hierarchy deadline', () => {
  it('keeps the publish reserve of a 15-minute invocation, and a quarter of a shorter one', () => {
    expect(hierarchyDeadline(1_000, 900_000)).toBe(1_000 + 900_000 - PUBLISH_RESERVE_MS);
    expect(hierarchyDeadline(1_000, 60_000)).toBe(1_000 + 45_000);
  });
});
