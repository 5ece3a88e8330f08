import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { cityIds, isCityId, type CityId } from '../core/cities/cities.ts';
import { buildableCities } from '../graph-builder/city-recipes.ts';
import { projectRoot } from '../lib/project-root.ts';
import { checkDataFolder, DataFolderError, graphOutputDir, sharedDataPath } from '../lib/local/paths.ts';
import type { BuildReport } from '../graph-builder/build.ts';
import { ensureGraphs } from '../graph-builder/index.ts';
import { formatReport, markdownReport, REPORT_FILE_NAME, REPOSITORY_REPORT, reportDestination } from '../graph-builder/build-report.ts';
import { writeFileAtomically } from '../graph-builder/writer.ts';

const usage = `Usage: npm run build-graphs -- [city ...] [--data <path>] [--out <dir>] [--force] [--report <file>]

Builds the routing graph of each city (all when none is named: ${cityIds.join(', ')})
whose inputs or builder changed since its last build, prints a report per city and writes the
last reports of the graph folder's cities as Markdown: to ${REPOSITORY_REPORT} for a build of
every city into the default graph folder, else to ${REPORT_FILE_NAME} in the graph folder.

  --data <path>    shared data folder (default ${sharedDataPath()})
  --out <dir>      graph folder (default ${graphOutputDir()})
  --force          rebuild even when up to date
  --report <file>  Markdown report to write instead; --no-report to skip`;

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
  try {
    await checkDataFolder(dataPath, values.data === undefined ? undefined : `That is the folder --data names ("${values.data}"); name the folder with the OSM extracts (without --data: ${sharedDataPath()}).`);
  } catch (error) {
    if (!(error instanceof DataFolderError)) throw error;
    console.error(error.message);
    return 2;
  }
  const cities = positionals.length > 0 ? (positionals as CityId[]) : undefined;
  const selected = cities ?? [...cityIds];
  const everyCity = cityIds.every((city) => selected.includes(city));
  const report = values['no-report'] ? null : reportDestination({ report: values.report, out: values.out, everyCity, outDir, projectRoot });

  if (selected.length > 1) {
    // One process per city: each report's peak memory is that city's alone, and memory is
    // returned between cities.
    let failed = false;
    for (const city of selected) {
      const args = [city, '--data', dataPath, '--out', outDir, '--no-report', ...(values.force ? ['--force'] : [])];
      const code = await new Promise<number>((done) => fork(process.argv[1]!, args, { stdio: 'inherit' }).on('exit', (exit) => done(exit ?? 1)));
      if (code !== 0) failed = true;
    }
    if (report) await writeMarkdownReport(outDir, report);
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

  if (report) await writeMarkdownReport(outDir, report);
  return failed ? 1 : 0;
}

/** The Markdown report of every city's last report.json in the graph folder (cities never built are left out). */
async function writeMarkdownReport(outDir: string, reportPath: string): Promise<void> {
  const reports: BuildReport[] = [];
  for (const city of buildableCities) {
    try {
      reports.push(JSON.parse(await readFile(join(outDir, 'cities', city.id, 'report.json'), 'utf8')) as BuildReport);
    } catch {
      // never built: no report yet
    }
  }
  await writeFileAtomically(reportPath, markdownReport(reports));
  console.log(`Report: ${reportPath}`);
}

process.exitCode = await main();
