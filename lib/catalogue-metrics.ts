import type { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS_NAMESPACE, metricCatalogue, type MetricDimension, type MetricName } from '../platform/metric-catalogue.ts';

/**
 * The platform's own metrics as the alarms and the dashboard read them: names, namespace and
 * dimensions come from platform/metric-catalogue.ts only. A metric is emitted with
 * exactly its catalogue dimensions, and CloudWatch matches a series on all of them, so a query
 * naming others would read a series that never exists: both helpers refuse one.
 */

export type DimensionValues = Partial<Record<MetricDimension, string>>;

export interface PlatformMetricOptions {
  readonly statistic: string;
  readonly period: Duration;
  readonly label?: string;
}

/** One series: every catalogue dimension of the metric with its value. */
export function catalogueMetric(name: MetricName, dimensions: DimensionValues, options: PlatformMetricOptions): Metric {
  const expected: readonly MetricDimension[] = metricCatalogue[name].dimensions;
  const given = Object.keys(dimensions);
  if (given.length !== expected.length || !expected.every((dimension) => given.includes(dimension))) {
    throw new Error(`${name} is emitted with dimensions [${expected.join(', ')}], not [${given.join(', ')}] (metric-catalogue.ts)`);
  }
  return new Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { ...dimensions }, ...options });
}

/**
 * Every series of the metric whose fixed dimensions have these values, whatever the others hold
 * (a CloudWatch SEARCH): one line per costing of a city without listing the costings here.
 */
export function catalogueMetricSearch(name: MetricName, fixed: DimensionValues, options: PlatformMetricOptions): MathExpression {
  const schema: readonly MetricDimension[] = metricCatalogue[name].dimensions;
  const unknown = Object.keys(fixed).filter((dimension) => !schema.includes(dimension as MetricDimension));
  if (unknown.length > 0) throw new Error(`${name} has no dimension ${unknown.join(', ')} (metric-catalogue.ts)`);
  const filters = Object.entries(fixed).map(([dimension, value]) => ` ${dimension}="${value}"`).join('');
  const query = `{${[METRICS_NAMESPACE, ...schema].join(',')}} MetricName="${name}"${filters}`;
  return new MathExpression({
    expression: `SEARCH('${query}', '${options.statistic}', ${options.period.toSeconds()})`,
    usingMetrics: {},
    period: options.period,
    ...(options.label ? { label: options.label } : {}),
  });
}
