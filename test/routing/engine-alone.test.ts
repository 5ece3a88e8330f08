import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import type { CityId } from '../../core/cities/index.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { graphOutputDir } from '../../lib/local/paths.ts';
import type { RouteBody } from '../../core/routing/planning/route-body.ts';
import { planDirections, type DirectionsBody } from '../../functions/directions/directions.ts';
import { directionsRequest } from '../../functions/directions/request.ts';

/**
 * The routing engine is one package that needs nothing of AWS (README, "Folders and which way
 * imports point"): test/routing/plan-from-graph-file.ts, a script importing only core/, plans a
 * New York route from the graph file the test run built, in a Node process where every AWS,
 * Powertools, token-verification, middy and CDK package is refused, and plans exactly the route
 * the directions endpoint's own code plans for the same request.
 */

// The endpoint's code, on the same graph file and with no accepted reports.
vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) => (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));

const SCRIPT = join(projectRoot, 'test/routing/plan-from-graph-file.ts');
const { importBoundaries } = (await import(pathToFileURL(join(projectRoot, 'eslint.config.js')).href)) as { importBoundaries: { core: { forbiddenPackages: RegExp[] } } };
/** The packages core/ may not import (eslint.config.js): the AWS SDK, Powertools, aws-jwt-verify, middy, aws-lambda, the CDK. */
const refused = importBoundaries.core.forbiddenPackages;

/** Every module a file reaches through its imports, type-only ones included: our files and package names. */
function reachedFrom(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.')) pending.push(resolve(dirname(file), fileName));
      else packages.add(fileName);
    }
  }
  return { files, packages };
}

const graphFile = (city: CityId): string => {
  const directory = graphOutputDir();
  return join(directory, parseGraphPointer(readFileSync(join(directory, currentPointerKey(city)), 'utf8')).key);
};

/** Loaded before the script: a resolve hook that refuses every package core/ may not import, as if none were installed. */
function refusingHook(): string {
  const hooks = `const refused = [${refused.map((pattern) => pattern.toString()).join(', ')}];
export async function resolve(specifier, context, next) {
  if (refused.some((pattern) => pattern.test(specifier))) throw new Error('not installed here: ' + specifier);
  return next(specifier, context);
}`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return `data:text/javascript,${encodeURIComponent(register)}`;
}

async function runScript(args: string[]): Promise<{ route: RouteBody | null; waypoints: DirectionsBody['waypoints']; safety_breakdown: unknown }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', refusingHook(), SCRIPT, ...args], { cwd: projectRoot });
  return JSON.parse(stdout);
}

const BROOKLYN_BRIDGE = { start: [-74.006, 40.7128], end: [-73.9899, 40.6955] } as const;
const MORNING = '2026-06-15T08:30';

describe('the routing engine alone', () => {
  it('reaches no module outside core/ and no AWS package from the script', () => {
    const { files, packages } = reachedFrom(SCRIPT);
    const outside = [...files].map((file) => relative(projectRoot, file)).filter((file) => file !== relative(projectRoot, SCRIPT) && !file.startsWith('core/'));
    expect(outside).toEqual([]);
    expect([...files].some((file) => relative(projectRoot, file) === 'core/routing/search/search.ts')).toBe(true);
    expect([...packages].filter((name) => refused.some((pattern) => pattern.test(name)))).toEqual([]);
  });

  it('refuses an AWS package in the process it plans in', async () => {
    await expect(promisify(execFile)(process.execPath, ['--import', refusingHook(), '--input-type=module', '-e', "await import('@aws-lambda-powertools/logger')"], { cwd: projectRoot })).rejects.toThrow(/not installed here: @aws-lambda-powertools\/logger/);
  });

  it('plans a New York route from the graph file as the directions endpoint does', async () => {
    const alone = await runScript(['--departure', MORNING, graphFile('new-york'), '--', BROOKLYN_BRIDGE.start.join(','), BROOKLYN_BRIDGE.end.join(',')]);
    const outcome = await planDirections(directionsRequest.parse({ coordinates: [BROOKLYN_BRIDGE.start, BROOKLYN_BRIDGE.end], departure_time: MORNING }));
    const endpoint = (outcome as { kind: 'routed'; body: DirectionsBody }).body;

    expect(alone.route).not.toBeNull();
    expect(alone.route!.distance).toBeGreaterThan(2000);
    expect(alone.route!.steps.at(-1)!.maneuver.type).toBe('Arrive');
    expect(alone.route).toEqual(endpoint.route);
    expect(alone.waypoints).toEqual(endpoint.waypoints);
    expect(alone.safety_breakdown).toEqual(endpoint.metadata.safety_breakdown);
  });
});
