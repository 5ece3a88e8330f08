import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { CityId } from '../../core/cities/index.ts';
import { withMovedClock, type MovedClock } from '../../platform/clock.ts';
import { CITY_ROUTER_TIMEOUT_SECONDS } from '../../platform/endpoints.ts';
import { setMetricsSink } from '../../platform/metrics.ts';
import { projectRoot } from '../project-root.ts';
import { asInvokePayload, invoke } from './invocations.ts';
import { lambdaContext } from './queue.ts';

/**
 * One city's routing function in a worker thread of the local platform, as a warm Lambda
 * container of `router-<city>` is: it holds that city's graph, runs the invocations the platform
 * posts it (many at once, in the runtime's InvokeStore, as the main thread runs its functions),
 * and answers each with the function's result. Its thread's CPU is its own, so a heavy request
 * here delays neither another city's requests nor the gateway. Started by
 * city-router-threads.ts through city-router-thread.mjs, which sets up the runtime first.
 */

/** What the platform starts the thread with. */
export interface CityRouterThreadData {
  readonly city: CityId;
  /** The function's module, from the project root: the endpoint table's `cityRouterEntry`, or a test's stand-in. */
  readonly entry: string;
}

/**
 * One invocation: the API Gateway event as the invoke's JSON payload carries it (`asInvokePayload`;
 * posted as an object, whose structured clone copies the body's text without escaping it), and the clock the caller's
 * request runs under (a test's moved clock, platform/clock.ts), so the invocation runs under it too.
 */
export interface CityRouterCall {
  readonly id: number;
  readonly payload: APIGatewayProxyEvent;
  readonly clock: MovedClock | null;
}

/** What the thread posts back: an invocation's JSON result or its error's type, and the EMF documents its functions publish. */
export type CityRouterThreadMessage =
  | { readonly kind: 'answer'; readonly id: number; readonly payload: APIGatewayProxyResult }
  | { readonly kind: 'failure'; readonly id: number; readonly errorType: string }
  | { readonly kind: 'metrics'; readonly document: EmfOutput };

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const port = parentPort;
if (!port) throw new Error('city-router-thread.ts runs as a worker thread of the local platform (lib/local/city-router-threads.ts)');
const { city, entry } = workerData as CityRouterThreadData;
const post = (message: CityRouterThreadMessage) => port.postMessage(message);

// The metrics log is the main thread's: every document goes there.
setMetricsSink((document) => post({ kind: 'metrics', document }));
const route = ((await import(pathToFileURL(join(projectRoot, entry)).href)) as { handler: ProxyHandler }).handler;

async function answer({ id, payload, clock }: CityRouterCall): Promise<void> {
  const context = lambdaContext(`router-${city}`, CITY_ROUTER_TIMEOUT_SECONDS);
  const run = () => invoke(context, () => route(payload, context));
  try {
    const result = await (clock ? withMovedClock(clock, run) : run());
    post({ kind: 'answer', id, payload: asInvokePayload(result) });
  } catch (error) {
    // As the Lambda runtime does: the error in the function's log, only its type to the caller.
    console.error(`router-${city}: invocation ${context.awsRequestId} failed: ${(error as Error)?.stack ?? String(error)}`);
    post({ kind: 'failure', id, errorType: error instanceof Error ? error.name : typeof error });
  }
}

port.on('message', (call: CityRouterCall) => void answer(call));
