import type { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

/**
 * X-Ray traces through Powertools Tracer: a subsegment per invocation's handler and one per AWS
 * SDK call (the clients in aws.ts are captured). It traces only inside Lambda, with the
 * function's active tracing on; anywhere else (the local platform, tests) tracing is off and
 * the tracer is never loaded: the X-Ray SDK installs async hooks on every promise of the
 * process as it loads (its continuation-local storage), which cost the local platform about a
 * fifth of its CPU per request with nothing to send the traces to. Responses are not put in
 * traces: they can hold a rider's data.
 */

/**
 * Whether Powertools Tracer would trace here, by its own rule (`Tracer.setTracingEnabled`): in a
 * Lambda execution environment, not Amplify's or SAM's local mock, and not turned off by
 * `POWERTOOLS_TRACE_ENABLED=false`.
 */
export function tracingCanBeOn(environment: NodeJS.ProcessEnv = process.env): boolean {
  const executionEnvironment = environment.AWS_EXECUTION_ENV ?? '';
  if ((environment.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() === 'false') return false;
  return executionEnvironment !== '' && executionEnvironment !== 'AWS_Lambda_amplify-mock' && !environment.AWS_SAM_LOCAL;
}

const tracer: Tracer | null = tracingCanBeOn()
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'spoke' })
  : null;

/** An AWS SDK v3 client whose calls are traced (itself, unchanged, where tracing is off). */
export function tracedClient<Client>(client: Client): Client {
  return tracer?.captureAWSv3Client(client) ?? client;
}

/** The invocation's handler subsegment, where tracing can be on; none elsewhere. */
export function invocationTracing(): MiddlewareObj<unknown, unknown, Error, Context>[] {
  return tracer ? [captureLambdaHandler(tracer, { captureResponse: false }) as MiddlewareObj<unknown, unknown, Error, Context>] : [];
}
