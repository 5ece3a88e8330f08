import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { cityIds, isCityId, type CityId } from '../core/cities/cities.ts';
import { buildableCities } from './cities.ts';
import { graphOutputDir, projectRoot, sharedDataPath } from '../core/paths.ts';
import type { BuildReport } from './build.ts';
import { ensureGraphs } from './index.ts';
import { formatReport, markdownReport } from './report.ts';
import { writeFileAtomically } from './writer.ts';

const usage = `Usage: npm run build-graphs -- [city ...] [--data <path>] [--out <dir>] [--force] [--report <file>]

Builds the routing graph of each city (all when none is named: ${cityIds.join(', ')})
whose inputs or builder changed since its last build, prints a report per city and writes all
cities' last reports to --report (default docs/graph-report.md).

  --data <path>    shared data folder (default ${sharedDataPath()})
  --out <dir>      graph folder (default ${graphOutputDir()})
  --force          rebuild even when up to date
  --report <file>  Markdown report to write; --no-report to skip`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      data: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      report: { type: 'string' },
      'no-report': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const unknown = positionals.filter((name) => !isCityId(name));
  if (unknown.length > 0) {
    console.error(`Unknown city: ${unknown.join(', ')}\n\n${usage}`);
    return 2;
  }
  const outDir = resolve(values.out ?? graphOutputDir());
  const dataPath = resolve(values.data ?? sharedDataPath());
  const cities = positionals.length > 0 ? (positionals as CityId[]) : undefined;

  const selected = cities ?? [...cityIds];
  if (selected.length > 1) {
    // One process per city: each report's peak memory is that city's alone, and memory is
    // returned between cities.
    let failed = false;
    for (const city of selected) {
      const args = [city, '--data', dataPath, '--out', outDir, '--no-report', ...(values.force ? ['--force'] : [])];
      const code = await new Promise<number>((done) => fork(process.argv[1]!, args, { stdio: 'inherit' }).on('exit', (exit) => done(exit ?? 1)));
      if (code !== 0) failed = true;
    }
    if (!values['no-report']) await writeMarkdownReport(outDir, values.report);
    return failed ? 1 : 0;
  }

  const bars = process.stderr.isTTY
    ? new cliProgress.MultiBar({ format: '{city} {pass} {file} [{bar}] {percentage}%', hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic)
    : null;
  let failed = false;
  for (const city of selected) {
    try {
      let bar: cliProgress.SingleBar | null = null;
      await ensureGraphs({
        cities: [city],
        dataPath,
        outDir,
        force: values.force,
        log: (line) => (bars ? bars.log(`${line}\n`) : console.log(line)),
        onProgress: () => (pass, progress) => {
          if (!bars) return;
          bar ??= bars.create(progress.totalBytes, 0, { city, pass, file: progress.file });
          bar.setTotal(progress.totalBytes);
          bar.update(progress.bytesRead, { city, pass, file: progress.file });
        },
        onBuilt: (report) => {
          if (bar) bars?.remove(bar);
          bar = null;
          const text = formatReport(report);
          if (bars) bars.log(`${text}\n`);
          else console.log(text);
        },
      });
      if (bar) bars?.remove(bar);
    } catch (error) {
      failed = true;
      console.error(`${city}: build failed: ${(error as Error).message}`);
    }
  }
  bars?.stop();

  if (!values['no-report']) await writeMarkdownReport(outDir, values.report);
  return failed ? 1 : 0;
}

/** docs/graph-report.md from every city's last report.json (cities never built are left out). */
async function writeMarkdownReport(outDir: string, reportOption: string | undefined): Promise<void> {
  const reports: BuildReport[] = [];
  for (const city of buildableCities) {
    try {
      reports.push(JSON.parse(await readFile(join(outDir, 'cities', city.id, 'report.json'), 'utf8')) as BuildReport);
    } catch {
      // never built: no report yet
    }
  }
  const reportPath = resolve(reportOption ?? join(projectRoot, 'docs', 'graph-report.md'));
  await writeFileAtomically(reportPath, markdownReport(reports));
  console.log(`Report: ${reportPath}`);
}

process.exitCode = await main();
