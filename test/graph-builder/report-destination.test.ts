import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { graphOutputDir, sharedDataPath } from '../../lib/local/paths.ts';
import { REPOSITORY_REPORT, reportDestination } from '../../graph-builder/build-report.ts';

/**
 * `npm run build-graphs` writes the tracked docs/graph-report.md only for a build of every city
 * into the default graph folder; a build of some cities, or into another folder, reports into
 * that graph folder instead.
 */

const run = promisify(execFile);
const root = '/checkout';
const outDir = '/checkout/.local-data/graphs';

describe('where the graph report goes', () => {
  it('into the repository for every city built into the default folder', () => {
    expect(reportDestination({ everyCity: true, outDir, projectRoot: root })).toBe('/checkout/docs/graph-report.md');
  });

  it('into the graph folder when only some cities are built', () => {
    expect(reportDestination({ everyCity: false, outDir, projectRoot: root })).toBe('/checkout/.local-data/graphs/graph-report.md');
  });

  it('into the output folder when one is given, even for every city', () => {
    expect(reportDestination({ everyCity: true, out: '/elsewhere', outDir: '/elsewhere', projectRoot: root })).toBe('/elsewhere/graph-report.md');
  });

  it('where --report says, when it says', () => {
    expect(reportDestination({ everyCity: false, out: '/elsewhere', report: '/tmp/report.md', outDir: '/elsewhere', projectRoot: root })).toBe('/tmp/report.md');
  });

  it('npm run build-graphs -- new-york --out <folder> leaves docs/graph-report.md alone and reports in the folder', async () => {
    const tracked = join(projectRoot, REPOSITORY_REPORT);
    const before = { text: await readFile(tracked, 'utf8'), modified: (await stat(tracked)).mtimeMs };
    // New York's current graph, copied: the build finds it up to date, and reports it.
    const out = await mkdtemp(join(tmpdir(), 'graph-report-'));
    await cp(join(graphOutputDir(), 'cities', 'new-york'), join(out, 'cities', 'new-york'), { recursive: true });
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/build-graphs.ts', 'new-york', '--out', out], { cwd: projectRoot });
    expect(stdout).toContain('new-york: graph new-york-');
    expect(stdout).toContain(`Report: ${join(out, 'graph-report.md')}`);
    const report = await readFile(join(out, 'graph-report.md'), 'utf8');
    expect(report).toContain('## New York City (`new-york`)');
    expect(report).not.toContain('(`london`)');
    expect(await readFile(tracked, 'utf8')).toBe(before.text);
    expect((await stat(tracked)).mtimeMs).toBe(before.modified);
  });
});

describe('npm run build-graphs without its data folder', () => {
  it('names the folder and the option it came from, with no stack trace', async () => {
    const missing = join(await mkdtemp(join(tmpdir(), 'graph-data-')), 'absent');
    const failed = await run(process.execPath, ['--import', 'tsx', 'bin/build-graphs.ts', 'sf-bay', '--data', missing, '--out', join(missing, 'graphs')], { cwd: projectRoot }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stdout: '' });
    expect(failed.stderr).toBe(`The data folder ${missing} does not exist.\nThat is the folder --data names ("${missing}"); name the folder with the OSM extracts (without --data: ${sharedDataPath()}).\n`);
  });
});
