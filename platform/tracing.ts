import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

/**
 * X-Ray traces through Powertools Tracer: a subsegment per invocation's handler and one per AWS
 * SDK call (the clients in aws.ts are captured). It traces only inside Lambda, with the
 * function's active tracing on; anywhere else (the local platform, tests) Powertools leaves it
 * off, and every call here returns at once. Responses are not put in traces: they can hold a
 * rider's data.
 */
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'spoke' });

/** An AWS SDK v3 client whose calls are traced (itself, unchanged, where tracing is off). */
export function tracedClient<Client>(client: Client): Client {
  return tracer.captureAWSv3Client(client) ?? client;
}

export function invocationTracing(): MiddlewareObj<unknown, unknown, Error, Context> {
  return captureLambdaHandler(tracer, { captureResponse: false }) as MiddlewareObj<unknown, unknown, Error, Context>;
}
