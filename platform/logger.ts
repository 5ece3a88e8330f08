import { Console } from 'node:console';
import { openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';

/**
 * The one structured logger. Log lines carry ids, routes, statuses and timings only: never
 * request bodies, headers, tokens, API keys or anything that identifies a rider. Inside an
 * invocation every line also carries the invocation's Lambda context and request id
 * (platform/invocation-logging.ts), wherever it is written.
 */

/** The Lambda runtime's InvokeStore, as far as this module needs it (`@aws/lambda-invoke-store`). */
interface InvokeStore {
  hasContext(): boolean;
  run<T>(context: object, work: () => T): T;
}

class PlatformLogger extends Logger {
  /**
   * When invocations share a process (`AWS_LAMBDA_MAX_CONCURRENCY` set), Powertools keeps its
   * per-invocation keys in the runtime's InvokeStore and throws for a line written outside any
   * invocation: at start-up, or from domain code a test calls directly. Such a line is written
   * in an empty scope of its own, with no invocation's keys.
   */
  protected override processLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): void {
    const store = (globalThis as { awslambda?: { InvokeStore?: InvokeStore } }).awslambda?.InvokeStore;
    if (process.env.AWS_LAMBDA_MAX_CONCURRENCY && store && !store.hasContext()) {
      store.run({}, () => super.processLogItem(logLevel, input, extraInput));
      return;
    }
    super.processLogItem(logLevel, input, extraInput);
  }
}

export const logger: Logger = new PlatformLogger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'spoke' });

/**
 * Where the local platform and its command-line tools write the log lines (`LOG_FILE_ENV`; see
 * `logToFile`). Never set in Lambda, where the lines go to stdout and on to CloudWatch Logs.
 */
export const LOG_FILE_ENV = 'SPOKE_LOG_FILE';

/**
 * Appends this process's (or thread's) log lines to `path` instead of printing them, so that a
 * person reads the local platform's banner and the CLI's answers without JSON lines among them.
 */
export function logToFile(path: string): void {
  const stream = appendingStream(path);
  // Powertools prints through a Console of its own; one on the file takes its place.
  (logger as unknown as { console: Console }).console = new Console({ stdout: stream, stderr: stream });
}

/**
 * A stream that appends each line to the file as it is written (`writeSync` on a descriptor
 * opened for appending), as Node writes its own stdout when that is a file. A request's log line
 * is a few hundred bytes the page cache takes in microseconds; a `fs.WriteStream` hands each one
 * to libuv's thread pool instead, waking a thread per line, which cost the local platform about
 * 0.2 ms of CPU a request at one request in flight (docs/benchmarks.md, "Load: CPU per request
 * around the planner"). The routing threads append to the same file: each line is one append, so
 * lines stay whole.
 */
function appendingStream(path: string): Writable {
  const descriptor = openSync(path, 'a');
  return new Writable({
    decodeStrings: false,
    write(line: string | Uint8Array, _encoding, done) {
      try {
        // Two calls, for writeSync's two overloads (text, or bytes when a caller passes them).
        if (typeof line === 'string') writeSync(descriptor, line);
        else writeSync(descriptor, line);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

// A routing thread of the local platform starts with its environment: it logs where the platform does.
const logFile = process.env[LOG_FILE_ENV];
if (logFile) logToFile(logFile);
