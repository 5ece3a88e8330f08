import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { s3 } from '../../platform/aws.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { bucketName } from '../../platform/resources.ts';
import { currentPointerKey } from '../../core/graph/catalog.ts';
import { cityGraph, forgetLoadedGraphs, GraphUnavailableError, loadedCities } from '../../functions/graphs/graph-store.ts';
import { buildCity, type BuildResult } from '../../graph-builder/build.ts';
import { publishGraph } from '../../graph-builder/publish.ts';
import { startLocalPlatform, type LocalPlatform } from '../../lib/local/launch.ts';

/**
 * The router's graph store against a real S3 protocol server (s3rver): one load per warm
 * container shared by concurrent requests, a newer graph_version picked up after the refresh
 * interval without a restart, and the loaded graph kept when a refresh fails.
 */
describe('graph store', () => {
  let platform: LocalPlatform;
  const built: BuildResult[] = [];

  beforeAll(async () => {
    platform = await startLocalPlatform({
      stateDir: await mkdtemp(join(tmpdir(), 'spoke-graphs-')),
      ports: { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 },
      log: () => {},
    });
    // Two builds of the small San Francisco graph a day apart: two graph versions.
    for (const day of ['2026-11-20', '2026-11-21']) {
      const outDir = await mkdtemp(join(tmpdir(), 'spoke-graph-version-'));
      built.push(await buildCity({ city: buildableCity('sf-bay'), dataPath: sharedDataPath(), outDir, now: new Date(`${day}T03:00:00Z`) }));
    }
    forgetLoadedGraphs();
  });
  afterAll(async () => {
    delete process.env.GRAPH_REFRESH_SECONDS;
    await platform.stop();
  });

  const publish = async (build: BuildResult) => publishGraph(bucketName('graphs'), 'sf-bay', build.pointer, await readFile(build.graphPath));

  it('answers GraphUnavailableError before any graph is published', async () => {
    await expect(cityGraph('sf-bay')).rejects.toBeInstanceOf(GraphUnavailableError);
  });

  it('loads once for concurrent requests and keeps the graph across calls', async () => {
    const [older] = built;
    await publish(older!);
    process.env.GRAPH_REFRESH_SECONDS = '3600';
    const loads = await Promise.all([cityGraph('sf-bay'), cityGraph('sf-bay'), cityGraph('sf-bay')]);
    expect(loads[0]!.version).toBe(older!.pointer.graph_version);
    expect(loads[1]).toBe(loads[0]);
    expect(loads[2]).toBe(loads[0]);
    expect(await cityGraph('sf-bay')).toBe(loads[0]);
  });

  it('swaps in a newer graph_version after the refresh interval, serving the old one meanwhile', async () => {
    const [older, newer] = built;
    const current = await cityGraph('sf-bay');
    await publish(newer!);
    // Within the interval nothing is re-read.
    expect(await cityGraph('sf-bay')).toBe(current);
    process.env.GRAPH_REFRESH_SECONDS = '0';
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The call that notices the interval has passed still gets the loaded graph at once.
    expect((await cityGraph('sf-bay')).version).toBe(older!.pointer.graph_version);
    await vi.waitFor(async () => expect((await cityGraph('sf-bay')).version).toBe(newer!.pointer.graph_version), { timeout: 5000, interval: 20 });
  });

  it('keeps the loaded graph when the pointer names a graph that is not there', async () => {
    const [, newer] = built;
    const missing = { ...newer!.pointer, graph_version: 'sf-bay-20261122T030000-00000000', key: 'cities/sf-bay/graphs/missing.graph' };
    await s3().send(new PutObjectCommand({ Bucket: bucketName('graphs'), Key: currentPointerKey('sf-bay'), Body: JSON.stringify(missing) }));
    process.env.GRAPH_REFRESH_SECONDS = '0';
    for (let call = 0; call < 5; call++) {
      expect((await cityGraph('sf-bay')).version).toBe(newer!.pointer.graph_version);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Let the last refresh attempt finish before the platform stops.
    process.env.GRAPH_REFRESH_SECONDS = '3600';
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  describe('within a memory budget', () => {
    let losAngeles: BuildResult;
    /** Resident bytes of each city's graph, as the store counts them. */
    const sizes = new Map<string, number>();
    const budgetMb = (bytes: number) => String(bytes / 2 ** 20);

    beforeAll(async () => {
      losAngeles = await buildCity({ city: buildableCity('los-angeles'), dataPath: sharedDataPath(), outDir: await mkdtemp(join(tmpdir(), 'spoke-graph-la-')), now: new Date('2026-11-21T03:00:00Z') });
      await publishGraph(bucketName('graphs'), 'los-angeles', losAngeles.pointer, await readFile(losAngeles.graphPath));
      await publish(built[0]!);
      process.env.GRAPH_REFRESH_SECONDS = '3600';
      forgetLoadedGraphs();
      for (const city of ['sf-bay', 'los-angeles'] as const) sizes.set(city, (await cityGraph(city)).residentBytes);
    });
    afterAll(() => {
      delete process.env.GRAPH_MEMORY_BUDGET_MB;
      forgetLoadedGraphs();
    });

    it('loads each city on first use and drops the least recently used city to make room for another', async () => {
      // Room for the larger city, not for both.
      const [smaller, larger] = [sizes.get('los-angeles')!, sizes.get('sf-bay')!].sort((x, y) => x - y) as [number, number];
      process.env.GRAPH_MEMORY_BUDGET_MB = budgetMb(larger + smaller / 2);
      forgetLoadedGraphs();
      expect(loadedCities()).toEqual([]);
      await cityGraph('sf-bay');
      expect(loadedCities()).toEqual(['sf-bay']);
      await cityGraph('los-angeles');
      expect(loadedCities()).toEqual(['los-angeles']);
      await cityGraph('sf-bay');
      expect(loadedCities()).toEqual(['sf-bay']);
    });

    it('keeps every city the budget holds, in order of use', async () => {
      process.env.GRAPH_MEMORY_BUDGET_MB = budgetMb(sizes.get('los-angeles')! + sizes.get('sf-bay')!);
      forgetLoadedGraphs();
      await cityGraph('los-angeles');
      await cityGraph('sf-bay');
      await cityGraph('los-angeles');
      expect(loadedCities()).toEqual(['sf-bay', 'los-angeles']);
    });

    it('refuses a city whose graph alone is over the budget', async () => {
      process.env.GRAPH_MEMORY_BUDGET_MB = budgetMb(sizes.get('los-angeles')! / 2);
      forgetLoadedGraphs();
      const refused = await cityGraph('los-angeles').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(GraphUnavailableError);
      expect(String((refused as GraphUnavailableError).cause)).toMatch(/needs about .* MB, over this function's graph budget/);
      expect(loadedCities()).toEqual([]);
    });

    it('without room for two versions, drops the old one before loading the new: never both at once', async () => {
      const [older, newer] = built;
      process.env.GRAPH_MEMORY_BUDGET_MB = budgetMb(sizes.get('sf-bay')! * 1.5);
      forgetLoadedGraphs();
      expect((await cityGraph('sf-bay')).version).toBe(older!.pointer.graph_version);
      await publish(newer!);
      process.env.GRAPH_REFRESH_SECONDS = '0';
      await new Promise((resolve) => setTimeout(resolve, 5));
      await vi.waitFor(async () => expect((await cityGraph('sf-bay')).version).toBe(newer!.pointer.graph_version), { timeout: 5000, interval: 20 });
      expect(loadedCities()).toEqual(['sf-bay']);
      process.env.GRAPH_REFRESH_SECONDS = '3600';
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
  });
});
