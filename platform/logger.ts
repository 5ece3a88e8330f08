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
