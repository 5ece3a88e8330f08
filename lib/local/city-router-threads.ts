import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import type { EmfOutput } from '@aws-lambda-powertools/metrics/types';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { CityId } from '../../core/cities/index.ts';
import { CityFunctionError, type CityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { movedClock } from '../../platform/clock.ts';
import { cityRouterEntry } from '../../platform/endpoints.ts';
import { projectRoot } from '../project-root.ts';
import type { CityRouterCall, CityRouterThreadData, CityRouterThreadMessage } from './city-router-thread.ts';
import { asInvokePayload } from './invocations.ts';

/**
 * The cities' routing functions on the local platform, each in a worker thread of its own, as
 * each city's function runs in its own Lambda containers in AWS: a heavy New York request takes
 * New York's thread, and London's requests and the gateway's event loop go on meanwhile. The
 * routing endpoints' dispatch (functions/dispatch/) invokes them as it would invoke the Lambdas:
 * the event and the answer pass as JSON, a function that throws is `CityFunctionError`. A city's
 * thread starts on its first request (its cold start) and loads its graph as a container would;
 * it shares this process's environment, so it sees the same tables, buckets and settings.
 */

/** The thread's own entry module: it makes TypeScript loadable in the thread and sets up the runtime, then loads city-router-thread.ts. */
const THREAD_ENTRY = 'lib/local/city-router-thread.mjs';
/** The type the Lambda runtime gives an invocation whose container died under it. */
const EXITED_ERROR_TYPE = 'Runtime.ExitError';
/** Lambda's `FunctionError` for an invocation that threw. */
const UNHANDLED = 'Unhandled';

interface PendingCall {
  resolve(payload: APIGatewayProxyResult): void;
  reject(error: Error): void;
}

interface CityThread {
  readonly worker: Worker;
  readonly pending: Map<number, PendingCall>;
}

export interface CityRouterThreads {
  readonly invoker: CityInvoker;
  /** Starts the city's thread if it has none, without invoking it: its cold start then happens before a request waits for it. */
  start(city: CityId): void;
  /** Ends every city's thread; invocations still running fail. */
  stop(): Promise<void>;
}

export interface CityRouterThreadOptions {
  /** Where the EMF documents the threads' functions publish go: the platform's metrics log. */
  onMetrics(document: EmfOutput): void;
  /** Reports a thread that failed or exited while it had invocations. */
  log(line: string): void;
  /** The function each thread runs (default: the endpoint table's `cityRouterEntry`); tests run stand-ins. */
  entry?: string;
}

export function cityRouterThreads({ onMetrics, log, entry = cityRouterEntry }: CityRouterThreadOptions): CityRouterThreads {
  const threads = new Map<CityId, CityThread>();
  let nextId = 0;
  let stopped = false;

  const start = (city: CityId): CityThread => {
    const workerData: CityRouterThreadData = { city, entry };
    // No execArgv: the entry registers the TypeScript loader itself, whatever this process runs under.
    const worker = new Worker(pathToFileURL(join(projectRoot, THREAD_ENTRY)), { workerData, env: SHARE_ENV, execArgv: [], name: `router-${city}` });
    const thread: CityThread = { worker, pending: new Map() };
    worker.on('message', (message: CityRouterThreadMessage) => {
      if (message.kind === 'metrics') return onMetrics(message.document);
      const call = thread.pending.get(message.id);
      thread.pending.delete(message.id);
      if (message.kind === 'answer') call?.resolve(message.payload);
      else call?.reject(new CityFunctionError(city, UNHANDLED, message.errorType));
    });
    worker.on('error', (error) => log(`router-${city}: thread failed: ${error.stack ?? String(error)}`));
    worker.on('exit', (code) => {
      if (threads.get(city) === thread) threads.delete(city);
      if (thread.pending.size > 0 && !stopped) log(`router-${city}: thread exited (code ${code}) with ${thread.pending.size} invocations running`);
      for (const call of thread.pending.values()) call.reject(new CityFunctionError(city, UNHANDLED, EXITED_ERROR_TYPE));
      thread.pending.clear();
    });
    threads.set(city, thread);
    return thread;
  };

  const invoker: CityInvoker = async (city, event) => {
    if (stopped) throw new CityFunctionError(city, UNHANDLED, EXITED_ERROR_TYPE);
    const thread = threads.get(city) ?? start(city);
    const id = nextId++;
    const answered = new Promise<APIGatewayProxyResult>((resolve, reject) => thread.pending.set(id, { resolve, reject }));
    const call: CityRouterCall = { id, payload: asInvokePayload(event), clock: movedClock() ?? null };
    thread.worker.postMessage(call);
    return answered;
  };

  return {
    invoker,
    start: (city) => {
      if (!stopped && !threads.has(city)) start(city);
    },
    stop: async () => {
      stopped = true;
      await Promise.all([...threads.values()].map((thread) => thread.worker.terminate()));
      threads.clear();
    },
  };
}
