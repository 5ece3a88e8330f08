import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import { afterEach, describe, expect, it } from 'vitest';
import { METRICS_LOG_FILE, PREVIOUS_METRICS_LOG_FILE, readMetricDocuments, startMetricsLog, type MetricsLog } from '../../lib/local/metrics-log.ts';
import { METRICS_NAMESPACE } from '../../platform/metric-catalogue.ts';

/**
 * The local platform's metrics log (lib/local/metrics-log.ts) keeps its file open across batches:
 * every document appended lands in metrics.jsonl in order, a restart appends to what is there,
 * and past its bound the file becomes metrics.previous.jsonl and a new one starts.
 */

const AT = Date.UTC(2026, 10, 24, 12, 0, 0);

function document(index: number): EmfOutput {
  return {
    _aws: { Timestamp: AT + index, CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['City']], Metrics: [{ Name: 'RoutesPlanned', Unit: 'Count' }] }] },
    City: 'london',
    RoutesPlanned: index,
  } as unknown as EmfOutput;
}

const timestamps = (documents: readonly EmfOutput[]) => documents.map((entry) => entry._aws.Timestamp - AT);

describe('the local metrics log', () => {
  let log: MetricsLog | undefined;
  afterEach(async () => {
    await log?.stop();
    log = undefined;
  });

  it('appends every document in order, across batches and a restart', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'spoke-metrics-log-'));
    log = await startMetricsLog(stateDir);
    for (let index = 0; index < 5; index++) log.append(document(index));
    await log.flush();
    log.append(document(5));
    await log.flush();
    await log.stop();
    log = await startMetricsLog(stateDir);
    log.append(document(6));
    await log.flush();
    expect(timestamps(await readMetricDocuments(stateDir, AT, AT + 100))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('starts a new file past its bound, keeping the one before', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'spoke-metrics-log-'));
    const oneDocument = JSON.stringify(document(0)).length + 1;
    log = await startMetricsLog(stateDir, oneDocument * 3);
    for (let index = 0; index < 8; index++) {
      log.append(document(index));
      await log.flush();
    }
    const previous = (await readFile(join(stateDir, PREVIOUS_METRICS_LOG_FILE), 'utf8')).trim().split('\n');
    expect(previous).toHaveLength(3);
    expect((await stat(join(stateDir, METRICS_LOG_FILE))).size).toBeLessThanOrEqual(oneDocument * 3);
    // The most recent documents, oldest file first, none lost between the two files.
    expect(timestamps(await readMetricDocuments(stateDir, AT, AT + 100))).toEqual([3, 4, 5, 6, 7]);
  });
});
