import { existsSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { nowMs } from '../../platform/clock.ts';
import { metrics } from '../../platform/metrics.ts';
import type { CityRouterThreadData } from '../../lib/local/city-router-thread.ts';

/**
 * A stand-in for the cities' routing function in the local platform's routing threads
 * (city-router-threads.test.ts): it answers which city's thread ran it and what the clock read
 * there, publishes one metric, throws when asked, or holds its thread until a file exists, as a
 * long search holds a router, without reading the clock.
 */

export interface StandInRequest {
  holdUntilExists?: string;
  fail?: boolean;
}

export const STAND_IN_METRIC = 'StandInInvocations';

const pause = new Int32Array(new SharedArrayBuffer(4));

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const request = JSON.parse(event.body ?? '{}') as StandInRequest;
  if (request.fail) throw new TypeError('the stand-in was asked to fail');
  // Synchronous, as a search's hot loop is: nothing else runs on this thread meanwhile.
  if (request.holdUntilExists) while (!existsSync(request.holdUntilExists)) Atomics.wait(pause, 0, 0, 1);
  metrics.addMetric(STAND_IN_METRIC, 'Count', 1);
  metrics.publishStoredMetrics();
  return { statusCode: 200, body: JSON.stringify({ city: (workerData as CityRouterThreadData).city, nowMs: nowMs() }) };
}
