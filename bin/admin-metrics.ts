/**
 * The `metrics` command of the operator CLI (bin/admin.ts hands it the arguments): what the local
 * platform's functions recorded lately, from the metrics log in its state folder
 * (lib/local/metrics-log.ts), per metric and dimension set (City, Costing, Endpoint, ...).
 *
 *   npm run admin -- metrics [--minutes 15] [--until <ISO instant>] [--json]
 *
 * `--until` ends the window at that instant instead of now (a past incident; a test's own clock).
 *
 * In AWS the same metrics are CloudWatch metrics in the `Spoke` namespace (docs/operations.md).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localStateDir } from '../lib/local/paths.ts';
import { metricsTable, readMetricDocuments, summariseMetrics } from '../lib/local/metrics-log.ts';

export class MetricsUsageError extends Error {}

const DEFAULT_MINUTES = 15;

/** The running platform's state folder, as its info file names it (the log is the platform's, wherever the reader's settings are). */
async function platformStateDir(): Promise<string> {
  const infoFile = join(localStateDir(), 'local-platform.json');
  try {
    return (JSON.parse(await readFile(infoFile, 'utf8')) as { state_dir: string }).state_dir;
  } catch {
    throw new MetricsUsageError(`No local platform found (${infoFile} is missing). Start it with \`npm start\`; in AWS the metrics are in CloudWatch.`);
  }
}

export async function metricsCommand(argv: string[], nowMs: number): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { minutes: { type: 'string' }, until: { type: 'string' }, json: { type: 'boolean', default: false }, aws: { type: 'boolean' } },
  });
  if (values.aws) throw new MetricsUsageError('admin metrics reads the local platform; in AWS the metrics are in CloudWatch, namespace Spoke (docs/operations.md)');
  const minutes = values.minutes === undefined ? DEFAULT_MINUTES : Number(values.minutes);
  if (!(minutes > 0)) throw new MetricsUsageError('--minutes must be a positive number');
  const untilMs = values.until === undefined ? nowMs : Date.parse(values.until);
  if (!Number.isFinite(untilMs)) throw new MetricsUsageError('--until must be an instant such as 2026-11-29T08:00:00Z');
  const rows = summariseMetrics(await readMetricDocuments(await platformStateDir(), untilMs - minutes * 60_000, untilMs));
  if (values.json) {
    console.log(JSON.stringify({ minutes, metrics: rows }));
    return;
  }
  console.log(rows.length ? metricsTable(rows) : `No metrics in the last ${minutes} minutes.`);
}
