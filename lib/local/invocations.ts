import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * Lambda invocations on the local platform, run the way Lambda's multi-concurrency runtime
 * (Lambda Managed Instances) runs them: many at once in one process, each inside the runtime's
 * InvokeStore with its own request id. With `AWS_LAMBDA_MAX_CONCURRENCY` set, Powertools Logger
 * keeps its per-invocation keys (the Lambda context, the correlation id) in that store, so a
 * log line written anywhere in domain code carries its own request's ids and never another's;
 * without the variable it keeps them in the one Logger instance, where concurrent requests
 * would overwrite each other's.
 */

/** Lambda sets this to the function's configured maximum; the local gateway itself sets no limit. */
const LOCAL_MAX_CONCURRENCY = '64';

/**
 * Tells Powertools (and any library reading the variable) that invocations share this process,
 * and creates the InvokeStore that scopes them. Call it before anything else asks for the store:
 * an AWS SDK client does on its first request, and would create the single-invocation kind.
 */
export async function enableConcurrentInvocations(): Promise<void> {
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= LOCAL_MAX_CONCURRENCY;
  const store = await InvokeStore.getInstanceAsync();
  // The single-invocation store keeps a context after `run` returns; the concurrent one does not.
  store.run({}, () => undefined);
  if (store.hasContext()) {
    throw new Error('The InvokeStore was created before concurrent invocations were enabled; enable them before any AWS SDK call');
  }
}

/** Runs one invocation as the runtime does: inside the InvokeStore, under the invocation's request id. */
export async function invoke<T>(context: Context, work: () => Promise<T>): Promise<T> {
  const store = await InvokeStore.getInstanceAsync();
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, work);
}

/**
 * Runs a function's initialization (its modules' top level) as the runtime does, inside the
 * InvokeStore with no request: where the process shares the concurrency setting from the start
 * (a city's routing thread, city-router-thread.mjs), Powertools' module-level objects look for
 * a store context as they are built.
 */
export async function initialize<T>(work: () => Promise<T>): Promise<T> {
  const store = await InvokeStore.getInstanceAsync();
  return store.run({}, work);
}

/**
 * `value` as a Lambda invoke's JSON payload carries it (fields JSON drops are dropped, dates become
 * strings), for the events and answers the local platform passes between its functions. A string
 * `body` comes out of a JSON round trip as the same string, so it is kept as it is: it is most of
 * a directions answer's bytes, its own JSON text, which the round trip would escape and read back
 * (about 0.2 ms of a 50 kB answer, per call).
 */
export function asInvokePayload<T extends object>(value: T): T {
  const { body, ...rest } = value as { body?: unknown };
  if (typeof body !== 'string') return JSON.parse(JSON.stringify(value)) as T;
  return { ...(JSON.parse(JSON.stringify(rest)) as T), body };
}
