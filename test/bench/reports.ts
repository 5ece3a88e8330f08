/**
 * Report pipeline timings on the local platform: `npx tsx test/bench/reports.ts`. Starts an
 * in-process platform with London's graph and the queue timings of resources.ts, files
 * BENCH_REPORTS reports (default 60) over HTTP, BENCH_CONCURRENCY at a time (default 4), and
 * measures the submission's latency and the time from its answer until the report is in_review
 * (read from the table every 25 ms). Prints the figures docs/reports.md quotes.
 */
import { mkdtemp } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../../lib/project-root.ts';
import { createApiKey } from '../../functions/auth/api-keys.ts';
import { getReport } from '../../functions/reports/store.ts';
import { prepareLocalGraphs } from '../../lib/local/graphs.ts';
import { startLocalPlatform } from '../../lib/local/launch.ts';
import { percentile } from './measure.ts';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
process.env.SPOKE_GRAPH_DIR ??= join(projectRoot, '.local-data', 'graphs');

const platform = await startLocalPlatform({ stateDir: await mkdtemp(join(tmpdir(), 'spoke-bench-reports-')), ports: { base: 0, app: 0, dynamodb: 0, s3: 0, sqs: 0, idp: 0 } });
try {
  await prepareLocalGraphs(['london'], () => undefined);
  const { key } = await createApiKey({ name: 'bench', plan: 'enterprise', limits: { perMinute: 10_000, perHour: 100_000, perDay: 1_000_000 } });
  const submit: number[] = [];
  const toReview: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < REPORTS) {
      const index = next++;
      const location = [-0.14 + (index % 20) * 0.0012, 51.519 + Math.floor(index / 20) * 0.002];
      const started = performance.now();
      const response = await fetch(`${platform.urls.base}/reports/`, {
        method: 'POST',
        headers: { apikey: key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ issue_type: 'road_closed', issue_subtype: 'barrier_gate', location }),
      });
      const { id } = (await response.json()) as { id: string };
      const answered = performance.now();
      submit.push(answered - started);
      while ((await getReport(id))?.status !== 'in_review') await sleep(25);
      toReview.push(performance.now() - answered);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const row = (name: string, values: number[]) =>
    `| ${name} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`;
  console.log(`${REPORTS} reports, ${CONCURRENCY} at a time, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})\n`);
  console.log('| ms | p50 | p95 | max |\n|---|---|---|---|');
  console.log(row('POST /reports/ answered', submit));
  console.log(row('answer to in_review', toReview));
} finally {
  await platform.stop();
}
