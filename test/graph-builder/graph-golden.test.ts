import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { buildCity } from '../../graph-builder/build.ts';
import { buildableCity, graphRecipes, type BuildableCity } from '../../graph-builder/city-recipes.ts';
import { fixtureCity, fixtureDir, fixturePath } from './helpers.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

/**
 * Golden graph digests: the SHA-256 of every byte of graphs built from fixed inputs at a fixed
 * build time, one line per graph in test/graph-builder/golden/.
 *
 * Why: a refactoring of the builder (moving code between stages, sharing a helper with core/)
 * must not change a single byte of any graph, and the routing tests only notice the changes they
 * happen to look at. These digests notice all of them, in a few seconds. A deliberate change to
 * the builder (tag rules, restrictions, the format, the costing behind the landmark tables)
 * changes digests: rewrite the files and commit them with the change, so the diff shows which
 * graphs it changed:
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/graph-builder/graph-golden.test.ts
 */

const goldenDir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const updating = process.env.UPDATE_GOLDEN === '1';
const BUILT_AT = new Date('2026-11-20T03:00:00Z');

interface GoldenGraph {
  readonly name: string;
  readonly city: BuildableCity;
  readonly dataPath: string;
}

async function digestLine({ name, city, dataPath }: GoldenGraph): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'graph-golden-'));
  try {
    const result = await buildCity({ city, dataPath, outDir, now: BUILT_AT });
    const bytes = await readFile(result.graphPath);
    return `${createHash('sha256').update(bytes).digest('hex')}  ${String(bytes.length).padStart(9)}  ${name}`;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Builds every graph and compares the digests with the golden file (or rewrites it). */
async function expectGolden(file: string, graphs: readonly GoldenGraph[]): Promise<void> {
  const lines: string[] = [];
  for (const graph of graphs) lines.push(await digestLine(graph));
  const rendered = `# SHA-256, bytes and name of each graph: see test/graph-builder/graph-golden.test.ts to regenerate.\n${lines.join('\n')}\n`;
  const path = join(goldenDir, file);
  if (updating) {
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(path, rendered);
  }
  expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
  expect(rendered).toBe(readFileSync(path, 'utf8'));
}

const handMade = ['junction-control.osm', 'network-attributes.osm', 'restrictions.osm', 'sidewalks.osm'];

describe('graphs of the hand-made fixtures', () => {
  it('are byte for byte as recorded', async () => {
    await expectGolden('hand-made.txt', handMade.map((file) => ({ name: file, city: fixtureCity([file]), dataPath: fixtureDir })));
  });
});

const dataPath = sharedDataPath();
const sfBay = buildableCity('sf-bay');
const londonAreas = graphRecipes.london.areas!;
const sharedInputs = [...sfBay.graph.extracts, ...sfBay.graph.elevation!.map((model) => model.file), londonAreas.file];
const available = sharedDataPresent(...sharedInputs.map((path) => join(dataPath, path)));

describe.skipIf(!available)('graphs from the shared data', () => {
  it('are byte for byte as recorded', async () => {
    await expectGolden('shared-data.txt', [
      { name: 'sf-bay (real extracts and DEM)', city: sfBay, dataPath },
      // Elevation from the DEM along a steep street, and the London boroughs embedded as areas.
      { name: 'sf-hill.osm with the sf-bay DEM', city: { ...sfBay, graph: { extracts: [fixturePath('sf-hill.osm')], elevation: sfBay.graph.elevation!, nightlySources: [] } }, dataPath },
      { name: 'network-attributes.osm with the London boroughs', city: { ...buildableCity('london'), graph: { extracts: [fixturePath('network-attributes.osm')], areas: londonAreas, nightlySources: [] } }, dataPath },
    ]);
  });
});
