import { mkdir, mkdtemp, readFile, symlink, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { readGraphHeader } from '../../core/graph/layout.ts';
import { ensureGraphs } from '../../graph-builder/index.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

const recipe = buildableCity('sf-bay').graph;
const inputs = [...recipe.extracts, ...recipe.elevation!.map((model) => model.file)];
const available = sharedDataPresent(...inputs);

describe.skipIf(!available)('ensureGraphs', () => {
  let dataPath: string;
  let outDir: string;
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'ensure-'));
    dataPath = join(root, 'data');
    outDir = join(root, 'graphs');
    // A private data folder that links to the shared files, so one input can be changed.
    for (const path of inputs) {
      await mkdir(dirname(join(dataPath, path)), { recursive: true });
      await symlink(join(sharedDataPath(), path), join(dataPath, path));
    }
  });

  it('builds a missing graph, then leaves it alone while inputs and builder are unchanged', async () => {
    const first = await ensureGraphs({ cities: ['sf-bay'], dataPath, outDir, log });
    expect(first['sf-bay']).toMatch(/cities\/sf-bay\/graphs\/sf-bay-\d{8}T\d{6}-[0-9a-f]{8}\.graph$/);
    expect(lines.at(-1)).toMatch(/^sf-bay: built /);
    const second = await ensureGraphs({ cities: ['sf-bay'], dataPath, outDir, log });
    expect(second['sf-bay']).toBe(first['sf-bay']);
    expect(lines.at(-1)).toMatch(/is up to date$/);
  });

  it('rebuilds when an input changes', async () => {
    const before = (await ensureGraphs({ cities: ['sf-bay'], dataPath, outDir }))['sf-bay']!;
    const euclid = join(dataPath, recipe.extracts[1]!);
    const text = await readFile(euclid, 'utf8');
    await rm(euclid);
    await writeFile(euclid, text.replace('</osm>', '<!-- edited --></osm>'));
    const after = (await ensureGraphs({ cities: ['sf-bay'], dataPath, outDir, log }))['sf-bay']!;
    expect(after).not.toBe(before);
    expect(lines).toContain('sf-bay: inputs or builder changed; building');
    expect(readGraphHeader(new Uint8Array(await readFile(after))).source_hash).not.toBe(readGraphHeader(new Uint8Array(await readFile(before))).source_hash);
  });

  it('keeps serving an existing graph when the data folder is gone, and skips a city with neither', async () => {
    const existing = await ensureGraphs({ cities: ['sf-bay'], dataPath: join(dataPath, 'nowhere'), outDir, log });
    expect(existing['sf-bay']).toBeDefined();
    const none = await ensureGraphs({ cities: ['los-angeles'], dataPath: join(dataPath, 'nowhere'), outDir, log });
    expect(none).toEqual({});
    expect(lines.at(-1)).toMatch(/^los-angeles: no graph and input data not readable/);
  });
});
