import middy from '@middy/core';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withClockAt } from '../../platform/clock.ts';
import { invocationSignals } from '../../platform/invocation-logging.ts';
import { METRICS_NAMESPACE, NO_GRAPH_AGE_HOURS } from '../../platform/metric-catalogue.ts';
import { recordMetric, setMetricsSink } from '../../platform/metrics.ts';
import { graphAgeAfterFailure } from '../../graph-builder/nightly-handler.ts';
import { enableConcurrentInvocations, invoke } from '../../lib/local/invocations.ts';
import { lambdaContext } from '../../lib/local/queue.ts';

/**
 * Metrics as the functions publish them: what an invocation recorded comes out when it ends, one
 * EMF document per dimension set with exactly the catalogue's dimensions, stamped with the
 * platform clock, and invocations sharing the process never mix their values.
 */
describe('invocation metrics', () => {
  const documents: EmfOutput[] = [];
  beforeAll(async () => {
    await enableConcurrentInvocations();
  });
  afterEach(() => {
    setMetricsSink(null);
    documents.length = 0;
  });

  const handler = middy<{ city: string; legs: number }, void>()
    .use(invocationSignals())
    .handler(async (event) => {
      for (let leg = 0; leg < event.legs; leg++) {
        recordMetric('RoutesPlanned', 1, { City: event.city, Costing: 'cycling-direct' });
        await new Promise((resolve) => setImmediate(resolve));
        recordMetric('StatesSettled', 100 + leg, { City: event.city, Costing: 'cycling-direct' });
      }
      recordMetric('SnapFailures', 2, { City: event.city });
    });

  const at = Date.parse('2031-05-01T08:00:00Z');
  const run = (functionName: string, event: { city: string; legs: number }) => {
    const context = lambdaContext(functionName, 5);
    return invoke(context, () => withClockAt(at, () => handler(event, context)));
  };
  const metricsOf = (document: EmfOutput) => document._aws.CloudWatchMetrics[0]!;

  it('publishes each dimension set once per invocation, its values together', async () => {
    setMetricsSink((document) => documents.push(document));
    await Promise.all([run('directions', { city: 'london', legs: 3 }), run('directions', { city: 'paris', legs: 1 })]);

    // Four documents: no cold start outside Lambda (Powertools counts one only where Lambda says
    // the container started on demand), and no document without a metric.
    expect(documents).toHaveLength(4);
    const routed = documents.filter((document) => document.RoutesPlanned !== undefined);
    expect(routed.map((document) => [document.City, document.RoutesPlanned, document.StatesSettled]).sort()).toEqual([
      ['london', [1, 1, 1], [100, 101, 102]],
      ['paris', 1, 100],
    ]);
    for (const document of routed) {
      expect(metricsOf(document)).toMatchObject({ Namespace: METRICS_NAMESPACE, Dimensions: [['City', 'Costing']] });
      // The platform clock's time (it runs on from the instant the invocation started at).
      expect(document._aws.Timestamp - at).toSatisfy((elapsed: number) => elapsed >= 0 && elapsed < 60_000);
      expect(document).not.toHaveProperty('service');
    }
    const snaps = documents.filter((document) => document.SnapFailures !== undefined);
    expect(snaps.map((document) => [document.City, metricsOf(document).Dimensions])).toEqual(
      expect.arrayContaining([['london', [['City']]], ['paris', [['City']]]]),
    );
    expect(snaps).toHaveLength(2);
  });

  it('says how stale a city is after a failed build', () => {
    expect(graphAgeAfterFailure(null, at)).toBe(NO_GRAPH_AGE_HOURS);
    expect(graphAgeAfterFailure({ built_at: '2031-04-30T20:00:00Z' }, at)).toBe(12);
  });
});
