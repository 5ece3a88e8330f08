import { Metrics, MetricUnit as EmfUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { nowMs } from './clock.ts';
import { logger } from './logger.ts';
import { METRICS_NAMESPACE, metricCatalogue, type MetricName, type MetricUnit } from './metric-catalogue.ts';

/**
 * The platform's metrics, written as CloudWatch Embedded Metric Format documents by Powertools
 * Metrics: in Lambda to stdout, where CloudWatch Logs turns them into metrics; on the local
 * platform to the sink it installs (lib/local/metrics-log.ts). Code records a metric with
 * `recordMetric`, which takes only a catalogue name and exactly that metric's dimensions, and
 * the invocation's chain (`invocationMetrics`) publishes what it recorded when it ends: one
 * document per dimension set, its values together, stamped with the platform clock.
 */

type Catalogue = typeof metricCatalogue;

/** CloudWatch has no unit of hours: an hour count is sent unitless, its name and the catalogue saying what it counts. */
const EMF_UNITS = { Count: EmfUnit.Count, Milliseconds: EmfUnit.Milliseconds, Bytes: EmfUnit.Bytes, Hours: EmfUnit.NoUnit } as const satisfies Record<MetricUnit, string>;

/** A metric's dimensions, every one it declares and no other. */
export type DimensionsOf<N extends MetricName> = { readonly [D in Catalogue[N]['dimensions'][number]]: string };

/** What an invocation recorded under one set of dimension values. */
interface PendingGroup {
  readonly dimensions: Readonly<Record<string, string>>;
  readonly values: Map<MetricName, number[]>;
}

/** The Lambda runtime's InvokeStore, as far as this module needs it (`@aws/lambda-invoke-store`). */
interface InvokeStore {
  hasContext(): boolean;
  get(key: symbol): unknown;
  set(key: symbol, value: unknown): void;
  run<T>(context: object, work: () => T): T;
}

const PENDING_KEY = Symbol('spoke.metrics.pending');
/** An invocation's groups when invocations do not share the process (one at a time, as classic Lambda runs them). */
let soloPending = new Map<string, PendingGroup>();

let documentSink: ((document: EmfOutput) => void) | null = null;

/**
 * Powertools' own notices about metrics (an invocation that recorded none, a timestamp a test
 * clock put outside CloudWatch's window): expected here, since `recordMetric` admits only valid
 * names, units and dimensions, so they are kept out of the request log.
 */
const diagnostics = {
  debug: (...args: unknown[]) => logger.debug(String(args[0])),
  info: (...args: unknown[]) => logger.debug(String(args[0])),
  warn: (...args: unknown[]) => logger.debug(String(args[0])),
  error: (...args: unknown[]) => logger.error(String(args[0])),
};

/** Powertools Metrics with the catalogue's namespace, no `service` dimension, and a replaceable destination. */
class PlatformMetrics extends Metrics {
  constructor(single = false) {
    super({ namespace: METRICS_NAMESPACE, singleMetric: single, logger: diagnostics });
    // A metric's dimensions are exactly the catalogue's, so alarms name the series that exist.
    this.clearDefaultDimensions();
  }

  /** The cold-start metric's own document, written where every other document goes. */
  override singleMetric(): Metrics {
    return new PlatformMetrics(true);
  }

  override publishStoredMetrics(): this {
    const sink = documentSink;
    if (!sink) return super.publishStoredMetrics();
    if (this.hasStoredMetrics()) sink(this.serializeMetrics());
    this.clearMetrics();
    this.clearDimensions();
    this.clearMetadata();
    return this;
  }
}

export const metrics: Metrics = new PlatformMetrics();

/**
 * Where EMF documents go instead of stdout: the local platform's metrics log. Null restores
 * stdout. Never set in AWS.
 */
export function setMetricsSink(sink: ((document: EmfOutput) => void) | null): void {
  documentSink = sink;
}

function invokeStore(): InvokeStore | undefined {
  return process.env.AWS_LAMBDA_MAX_CONCURRENCY ? (globalThis as { awslambda?: { InvokeStore?: InvokeStore } }).awslambda?.InvokeStore : undefined;
}

/** This invocation's groups; null outside any invocation of a process that runs many at once. */
function pendingGroups(): Map<string, PendingGroup> | null {
  const store = invokeStore();
  if (!store) return soloPending;
  if (!store.hasContext()) return null;
  let groups = store.get(PENDING_KEY) as Map<string, PendingGroup> | undefined;
  if (!groups) {
    groups = new Map();
    store.set(PENDING_KEY, groups);
  }
  return groups;
}

function takePendingGroups(): PendingGroup[] {
  const store = invokeStore();
  if (!store) {
    const groups = [...soloPending.values()];
    soloPending = new Map();
    return groups;
  }
  if (!store.hasContext()) return [];
  const groups = store.get(PENDING_KEY) as Map<string, PendingGroup> | undefined;
  store.set(PENDING_KEY, undefined);
  return groups ? [...groups.values()] : [];
}

/** Puts a group's values in Powertools' store, under its dimensions and the platform clock's time. */
function stage(group: PendingGroup): void {
  metrics.addDimensions(group.dimensions);
  for (const [name, values] of group.values) {
    for (const value of values) metrics.addMetric(name, EMF_UNITS[metricCatalogue[name].unit], value);
  }
  metrics.setTimestamp(nowMs());
}

/**
 * Records one value of a catalogue metric, published when the invocation ends. Outside any
 * invocation (a graph refreshed in the background on the local platform) it is published at once.
 */
export function recordMetric<N extends MetricName>(name: N, value: number, dimensions: DimensionsOf<N>): void {
  const declared = metricCatalogue[name].dimensions as readonly string[];
  const values = dimensions as Readonly<Record<string, string>>;
  let key = '';
  for (const dimension of declared) key += `${dimension}=${values[dimension]}\u0000`;
  const groups = pendingGroups();
  if (!groups) {
    const group: PendingGroup = { dimensions: values, values: new Map([[name, [value]]]) };
    invokeStore()!.run({}, () => {
      stage(group);
      metrics.publishStoredMetrics();
    });
    return;
  }
  let group = groups.get(key);
  if (!group) {
    group = { dimensions: values, values: new Map() };
    groups.set(key, group);
  }
  const list = group.values.get(name);
  if (list) list.push(value);
  else group.values.set(name, [value]);
}

/**
 * The metrics of an invocation: the cold-start metric on a container's first, and everything
 * recorded published when it ends, returns or throws. Powertools' `logMetrics` publishes the
 * last group; the groups before it are published here first, each with its own dimensions.
 */
export function invocationMetrics(): MiddlewareObj<unknown, unknown, Error, Context>[] {
  const publishGroups = () => {
    const groups = takePendingGroups();
    groups.forEach((group, index) => {
      stage(group);
      if (index < groups.length - 1) metrics.publishStoredMetrics();
    });
  };
  return [
    logMetrics(metrics, { captureColdStartMetric: true }) as MiddlewareObj<unknown, unknown, Error, Context>,
    { after: publishGroups, onError: publishGroups },
  ];
}
