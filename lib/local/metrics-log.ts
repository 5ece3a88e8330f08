import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import { metricCatalogue, type MetricUnit } from '../../platform/metric-catalogue.ts';
import { setMetricsSink } from '../../platform/metrics.ts';

/**
 * The local platform's metrics: the EMF documents its functions publish (platform/
 * metrics.ts), which Lambda would write to CloudWatch Logs, appended as JSON lines to
 * `metrics.jsonl` in the state folder, where `npm run admin -- metrics` and the tests read them.
 * Writes are batched off the request path. The log is bounded: past MAX_METRICS_LOG_BYTES the
 * file becomes `metrics.previous.jsonl` (replacing the one before) and a new one starts, so the
 * two hold between one and two bounds' worth of the most recent documents.
 */

export const METRICS_LOG_FILE = 'metrics.jsonl';
export const PREVIOUS_METRICS_LOG_FILE = 'metrics.previous.jsonl';
/** About 20,000 documents of a few hundred bytes: hours of a developer's traffic, minutes of a load test. */
export const MAX_METRICS_LOG_BYTES = 8 * 2 ** 20;

export interface MetricsLog {
  /** Queues one EMF document: what this process's functions publish, and what the cities' routing threads post. */
  append(document: EmfOutput): void;
  /** Writes what is still queued. */
  flush(): Promise<void>;
  /** Flushes and puts EMF documents back on stdout. */
  stop(): Promise<void>;
}

/** Sends the functions' EMF documents in this process to the state folder's metrics log. */
export async function startMetricsLog(stateDir: string, maxBytes = MAX_METRICS_LOG_BYTES): Promise<MetricsLog> {
  const path = join(stateDir, METRICS_LOG_FILE);
  let bytes = await stat(path).then((info) => info.size, () => 0);
  let queued: string[] = [];
  // Open for the platform's life, so a batch costs one write rather than an open, a write and a
  // close; written at once (logger.ts's `appendingStream` says why), off the request path since
  // a batch is written after the turn of the event loop that queued it.
  let descriptor = openSync(path, 'a');

  const write = (text: string) => {
    if (bytes > 0 && bytes + text.length > maxBytes) {
      closeSync(descriptor);
      renameSync(path, join(stateDir, PREVIOUS_METRICS_LOG_FILE));
      descriptor = openSync(path, 'a');
      bytes = 0;
    }
    writeSync(descriptor, text);
    bytes += text.length;
  };
  const flush = async () => {
    if (queued.length === 0) return;
    const text = queued.join('');
    queued = [];
    try {
      write(text);
    } catch (error) {
      console.error(`metrics log: ${(error as Error).message}`);
    }
  };

  const append = (document: EmfOutput) => {
    if (queued.length === 0) setImmediate(() => void flush());
    queued.push(`${JSON.stringify(document)}\n`);
  };
  setMetricsSink(append);
  return {
    append,
    flush,
    stop: async () => {
      setMetricsSink(null);
      await flush();
      closeSync(descriptor);
    },
  };
}

/** The documents of the metrics log stamped within [fromMs, toMs), oldest file first. */
export async function readMetricDocuments(stateDir: string, fromMs: number, toMs: number): Promise<EmfOutput[]> {
  const documents: EmfOutput[] = [];
  for (const file of [PREVIOUS_METRICS_LOG_FILE, METRICS_LOG_FILE]) {
    const text = await readFile(join(stateDir, file), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      // A line still being written when the file was read is left for the next read.
      if (!line.endsWith('}')) continue;
      const document = JSON.parse(line) as EmfOutput;
      const at = document._aws?.Timestamp;
      if (at >= fromMs && at < toMs) documents.push(document);
    }
  }
  return documents;
}

/** One metric under one set of dimension values, over the documents read. */
export interface MetricSummary {
  metric: string;
  unit: MetricUnit | 'unknown';
  dimensions: Record<string, string>;
  /** Values recorded (a count metric's events; a timing's samples). */
  samples: number;
  sum: number;
  p50: number;
  p95: number;
  max: number;
}

const percentile = (sorted: readonly number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

/** Every metric's values per dimension set, sorted by metric, then dimension values. */
export function summariseMetrics(documents: readonly EmfOutput[]): MetricSummary[] {
  const series = new Map<string, { metric: string; dimensions: Record<string, string>; values: number[] }>();
  for (const document of documents) {
    for (const directive of document._aws.CloudWatchMetrics) {
      const dimensions = Object.fromEntries((directive.Dimensions[0] ?? []).map((name) => [name, String(document[name])]));
      for (const { Name } of directive.Metrics) {
        const key = JSON.stringify([Name, dimensions]);
        let entry = series.get(key);
        if (!entry) series.set(key, (entry = { metric: Name, dimensions, values: [] }));
        const value = document[Name];
        entry.values.push(...(Array.isArray(value) ? (value as number[]) : [value as number]));
      }
    }
  }
  return [...series.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, { metric, dimensions, values }]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return {
        metric,
        unit: (metricCatalogue as Record<string, { unit: MetricUnit }>)[metric]?.unit ?? 'unknown',
        dimensions,
        samples: values.length,
        sum: values.reduce((total, value) => total + value, 0),
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        max: sorted[sorted.length - 1]!,
      };
    });
}

/** A summary as a person reads it: counts as totals, timings and sizes by their spread. */
export function metricsTable(rows: readonly MetricSummary[]): string {
  const round = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
  const header = ['metric', 'dimensions', 'unit', 'samples', 'sum', 'p50', 'p95', 'max'];
  const lines = rows.map((row) => [
    row.metric,
    Object.entries(row.dimensions).map(([name, value]) => `${name}=${value}`).join(' ') || '-',
    row.unit,
    String(row.samples),
    round(row.sum),
    ...(row.unit === 'Count' ? ['', '', ''] : [round(row.p50), round(row.p95), round(row.max)]),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  return [header, ...lines].map((line) => line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
