import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { logger } from './logger.ts';
import { invocationMetrics } from './metrics.ts';
import { invocationTracing } from './tracing.ts';

/**
 * The ids of an invocation on every log line it writes, wherever in domain code the line is
 * written: Powertools' `injectLambdaContext` adds the Lambda context (`function_request_id`,
 * `function_name`, `cold_start`, ...) and this chain adds API Gateway's request id as
 * `correlation_id`, the id the caller sees in `x-amzn-RequestId`. Both are forgotten when the
 * invocation ends (`resetKeys`). When invocations share a process (`AWS_LAMBDA_MAX_CONCURRENCY`
 * set, as Lambda Managed Instances and the local platform run them) Powertools keeps these keys
 * per invocation in the runtime's InvokeStore, so concurrent requests never see each other's.
 *
 * Use it outermost, so that the last line of a request, its request log, still has the keys.
 * Functions that are not behind API Gateway (schedules, queue consumers) wrap their handler with
 * `withInvocationLogging`: their correlation id is the invocation's own request id.
 */

/** Any event API Gateway sends: proxy requests and REQUEST authorizer calls alike. */
export interface GatewayEvent {
  requestContext?: { requestId?: string } | null;
}

/** API Gateway's request id, or the invocation's own id for an event without one. */
export function requestIdOf(event: GatewayEvent | null | undefined, context: Context): string {
  return event?.requestContext?.requestId ?? context.awsRequestId;
}

export function invocationLogging(): MiddlewareObj<GatewayEvent, unknown, Error, Context>[] {
  const correlationId: MiddlewareObj<GatewayEvent, unknown, Error, Context> = {
    before: (request) => {
      const requestId = requestIdOf(request.event, request.context);
      if (requestId) logger.setCorrelationId(requestId);
    },
  };
  return [injectLambdaContext(logger, { resetKeys: true }) as MiddlewareObj<GatewayEvent, unknown, Error, Context>, correlationId];
}

/**
 * Everything an invocation reports besides its answer, outermost in every function's chain: its
 * log keys (as above), its X-Ray trace (tracing.ts) and its metrics, published when it ends
 * (metrics.ts). HTTP handlers get it from `boundary()`, the authorizer and the other functions
 * directly or through `withInvocationLogging`.
 */
export function invocationSignals(): MiddlewareObj<GatewayEvent, unknown, Error, Context>[] {
  return [...invocationLogging(), ...invocationTracing(), ...invocationMetrics()] as MiddlewareObj<GatewayEvent, unknown, Error, Context>[];
}

/** A Lambda handler for any event, with the invocation's ids on every line it logs, its trace and its metrics. */
export function withInvocationLogging<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>): (event: Event, context: Context) => Promise<Result> {
  return middy(handler).use(invocationSignals() as MiddlewareObj<Event, Result, Error, Context>[]) as unknown as (event: Event, context: Context) => Promise<Result>;
}
